//! `snl analyze`: exact numbers as tables and JSON (SPEC §7), plots, and the honest answers for
//! boards that never end.
//!
//! Long because the plot checks read the SVG (rectangles, texts) with small helpers of their own.

use crate::util::*;

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("snl-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn json_has_every_key_of_the_spec_for_the_milton_bradley_board() {
    let v = snl_json(&["analyze", "--board", "milton-bradley", "--json"]);
    // Althoen, King & Schilling (1993): 39.2251… expected moves; at least 7.
    assert!((v["expected_turns"].as_f64().unwrap() - 39.225_122_308_2).abs() < 1e-9);
    let rolls = v["expected_rolls"].as_f64().unwrap();
    assert!((rolls - v["expected_turns"].as_f64().unwrap()).abs() < 1e-12);
    assert!(v["std_dev_turns"].as_f64().unwrap() > 20.0);
    assert_eq!(v["min_turns"], 7);
    assert_eq!(v["median_turns"], 32);
    assert_eq!(v["mode_turns"], 22);
    let q = &v["quantiles"];
    for key in ["0.1", "0.25", "0.5", "0.75", "0.9", "0.99"] {
        assert!(q[key].is_u64(), "quantile {key}: {q}");
    }
    assert_eq!(q["0.5"], v["median_turns"]);
    let by = v["p_finish_by"].as_array().unwrap();
    assert_eq!(by[0], 0.0);
    assert_eq!(by[6], 0.0);
    assert!(by[7].as_f64().unwrap() > 0.0);
    assert!(1.0 - by.last().unwrap().as_f64().unwrap() < 1e-11);
    assert!(v.get("win_probability").is_none(), "no seats, no win probabilities");
    assert!(v.get("p_finish_by_tail").is_none(), "a short distribution is listed whole");
    assert_eq!(v["expected_landings"].as_array().unwrap().len(), 101);
}

/// Issue 16's board: 10^5 cells, games of 7,300 turns, some 197,000 turns to the 1e-12 tail
/// (about 2,000 propagated, the rest from the geometric tail). The text gives every quantile
/// and no "partial" note; the JSON lists 65,536 turns past the propagated ones and the tail's
/// law, which with the list gives the whole distribution: its mean is the expected turns.
#[test]
fn a_hundred_thousand_cell_board_is_analysed_to_its_tail() {
    let dir = TempDir::new("analyze-big");
    let board = dir.file("big0.toml");
    let made = snl(&[
        "board",
        "generate",
        "--size",
        "100000",
        "--snakes",
        "2500",
        "--ladders",
        "2500",
        "--seed",
        "0",
        "-o",
        &board,
    ]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    let text = snl(&["analyze", "--board", &board]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(!text.stdout.contains("partial"), "{}", text.stdout);
    let rows = table(&text.stdout, "Turns needed, by quantile");
    let values: Vec<&str> = rows[2].split_whitespace().collect();
    assert_eq!(values.len(), 6, "{}", rows[2]);
    assert!(values.iter().all(|v| v.parse::<u32>().is_ok()), "{}", rows[2]);

    let v = snl_json(&["analyze", "--board", &board, "--json"]);
    assert_eq!(v["complete"], true);
    assert!(v["quantiles"]["0.99"].as_u64().unwrap() > 30_000, "{}", v["quantiles"]);
    let by: Vec<f64> =
        v["p_finish_by"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    let tail = &v["p_finish_by_tail"];
    let from = usize::try_from(tail["from"].as_u64().unwrap()).unwrap();
    let last = usize::try_from(tail["last_turn"].as_u64().unwrap()).unwrap();
    assert_eq!(by.len(), from + 65_536 + 1);
    assert!(from < 5_000 && last > 150_000, "{tail}");
    let [live, ratio, finishing, bound] =
        ["live", "ratio", "finishing", "bound"].map(|key| tail[key].as_f64().unwrap());
    assert!(bound <= 1e-12 && ratio < 1.0, "{tail}");
    let cdf = |k: usize| {
        if k < by.len() {
            return by[k];
        }
        let j = i32::try_from(k - from).unwrap();
        by[from] + finishing * live * (1.0 - ratio.powi(j)) / (1.0 - ratio)
    };
    // The law agrees with the list where both give P(T ≤ k)...
    for k in [from + 1, from + 1_000, by.len() - 1] {
        let j = i32::try_from(k - from).unwrap();
        let law = by[from] + finishing * live * (1.0 - ratio.powi(j)) / (1.0 - ratio);
        assert!((law - by[k]).abs() < 1e-10, "P(T <= {k}): {law} vs {}", by[k]);
    }
    // ... and with it gives the whole distribution: E[T] = Σ P(T > k), 1e-12 left at the end.
    let mean: f64 = (0..=last).map(|k| 1.0 - cdf(k)).sum();
    let expected = v["expected_turns"].as_f64().unwrap();
    assert!((mean - expected).abs() < 1e-8 * expected, "{mean} vs {expected}");
    assert!(1.0 - cdf(last) < 1e-11);
}

#[test]
fn seats_get_win_probabilities_in_seating_order_and_the_game_length() {
    let v = snl_json(&[
        "analyze",
        "--board",
        "milton-bradley",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:hard",
        "--player",
        "Cy:easy",
        "--json",
    ]);
    let win: Vec<f64> =
        v["win_probability"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    assert_eq!(win.len(), 3);
    assert!(win[0] > win[1] && win[1] > win[2], "earlier seats win more often: {win:?}");
    assert!((win.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    let rolls = v["expected_game_rolls"].as_f64().unwrap();
    // Three players finish the first of them well before one player alone would.
    assert!(rolls > 39.2 && rolls < 3.0 * 39.2, "{rolls}");
    assert_eq!(v["players"], serde_json::json!(["Ann", "Bob", "Cy"]));
}

#[test]
fn finish_all_heads_each_rank_as_every_screen_writes_a_rank() {
    let args = ["analyze", "--board", "kids", "--finish", "all"];
    let seats = ["--player", "A:easy", "--player", "B:easy", "--player", "C:easy"];
    let run = snl(&[&args[..], &seats[..]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let heading = run.stdout.lines().find(|l| l.trim_start().starts_with("seat")).unwrap();
    let words: Vec<&str> = heading.split_whitespace().collect();
    assert_eq!(words, ["seat", "1st", "2nd", "3rd"], "{}", run.stdout);
}

#[test]
fn finish_all_adds_the_rank_of_every_seat() {
    let v = snl_json(&[
        "analyze", "--board", "kids", "--finish", "all", "--player", "A:easy", "--player",
        "B:easy", "--json",
    ]);
    let ranks = v["rank_probability"].as_array().unwrap();
    for row in ranks {
        let total: f64 = row.as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-12, "{row}");
    }
    let first = ranks[0][0].as_f64().unwrap();
    assert!((first - v["win_probability"][0].as_f64().unwrap()).abs() < 1e-12);
}

#[test]
fn text_shows_tables_of_the_length_seats_and_landings() {
    let run = snl(&[
        "analyze",
        "--board",
        "milton-bradley",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:easy",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    for needle in [
        "Board milton-bradley (100 cells)",
        "expected turns   39.2251",
        "fewest turns     7",
        "median turns     32",
        "most likely      22 turns",
        "Turns needed, by quantile",
        "Chance to finish",
        "Seats: chance to win",
        "Ann",
        "whole game: 52.1540 rolls",
        "Most landed-on cells",
    ] {
        assert!(out.contains(needle), "{needle:?} not in:\n{out}");
    }
    assert!(out.lines().count() < 60, "short enough to read:\n{out}");
}

#[test]
fn percentages_are_plain_decimals_in_tables_that_line_up() {
    let run = snl(&[
        "analyze",
        "--board",
        "milton-bradley",
        "--player",
        "Ann:easy",
        "--player",
        "Bartholomew:easy",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert_no_scientific_notation(out);
    let chance = table(out, "turns k");
    assert_eq!(chance[0], "  turns k   on turn k   within k turns");
    // P(finish on turn 120) = 5.71e-4: once printed as 5.71e-2%.
    assert!(chance.contains(&"      120     0.0571%           98.64%"), "{out}");
    assert_right_edge_lines_up(&chance);
    let seats = table(out, "seat ");
    assert_eq!(
        seats[..3],
        ["  seat          win chance", "  Ann               50.79%", "  Bartholomew       49.21%"]
    );
    let landings = table(out, "cell ");
    assert_eq!(landings[1], "    47     0.6734   snake to 26");
    assert!(landings[2].ends_with("0.6384"), "{out}");
}

#[test]
fn the_tiniest_chances_are_written_as_less_than_a_ten_thousandth_of_a_percent() {
    let run = snl(&["analyze", "--board", "random", "--size", "400", "--seed", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let chance = table(&run.stdout, "turns k");
    // Fewest turns: 24 sixes in a row and more, (1/6)^24 ≈ 1e-19.
    assert_eq!(chance[1], "       24   < 0.0001%        < 0.0001%");
    assert_right_edge_lines_up(&chance);
    assert_no_scientific_notation(&run.stdout);
}

#[test]
fn the_strategy_table_lines_up() {
    let run = snl(&["analyze", "--board", "kids", "--choice", "may-pass"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let strategies = table(&run.stdout, "strategy");
    // Heading, easy, greedy, hard, and the note under the table.
    assert!(strategies[3].starts_with("  hard "), "{}", run.stdout);
    assert_right_edge_lines_up(&strategies[..4]);
}

#[test]
fn a_large_board_prints_a_short_report() {
    let run = snl(&[
        "analyze",
        "--board",
        "random",
        "--size",
        "40000",
        "--snakes",
        "20",
        "--ladders",
        "20",
        "--seed",
        "3",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.lines().count() < 60, "{}", run.stdout);
}

#[test]
fn a_trap_is_reported_as_infinite_with_the_chance_of_being_stuck() {
    // 2d6 never shows a 1: under overshoot stay a token on cell 9 of 10 is stuck for ever.
    let v = snl_json(&["analyze", "--board", "empty", "--dice", "2d6", "--json"]);
    assert!(v["expected_turns"].is_null() && v["expected_rolls"].is_null());
    let never = v["p_never_finish"].as_f64().unwrap();
    assert!(never > 0.0 && never < 1.0, "{never}");
    assert_eq!(v["reachable"], true);
    let run = snl(&["analyze", "--board", "empty", "--dice", "2d6"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("infinite"), "{}", run.stdout);
    assert!(!run.stdout.contains("inf ") && !run.stdout.contains("NaN"), "{}", run.stdout);
}

#[test]
fn an_unreachable_last_cell_is_said_to_be_unreachable() {
    let board = temp("walled.toml");
    std::fs::write(
        &board,
        "size = 8\n[rules]\ndice = \"1d2\"\n[[snake]]\nhead = 4\ntail = 1\n[[snake]]\nhead = 5\ntail = 1\n",
    )
    .unwrap();
    let path = board.to_str().unwrap();
    let run = snl(&["analyze", "--board", path]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("unreachable"), "{}", run.stdout);
    let v = snl_json(&["analyze", "--board", path, "--json"]);
    assert_eq!(v["reachable"], false);
    assert!(v["min_turns"].is_null() && v["median_turns"].is_null());
    assert_eq!(v["p_never_finish"], 1.0);
}

#[test]
fn bad_input_is_refused_with_exit_code_2() {
    let run = snl(&["analyze", "--plot", "lengths.jpg"]);
    assert_fails(&run, 2, &["lengths.jpg", ".svg or .png"]);
    let run = snl(&["analyze", "--player", "Ann"]);
    assert_fails(&run, 2, &["Ann"]);
    let run = snl(&["analyze", "--player", "A:easy", "--player", "A:hard"]);
    assert_fails(&run, 2, &["'A'"]);
    let run = snl(&["analyze", "--dice", "9d6"]);
    assert_fails(&run, 2, &["9d6"]);
}

/// The value of attribute `name` of an SVG element's line.
fn attr<'a>(element: &'a str, name: &str) -> &'a str {
    let start =
        element.find(&format!(" {name}=\"")).unwrap_or_else(|| panic!("{name} in {element}"))
            + name.len()
            + 3;
    let len = element[start..].find('"').unwrap();
    &element[start..start + len]
}

/// The rectangles of an SVG drawn by plotters: x, y, width, height and fill.
fn rects(svg: &str) -> Vec<(f64, f64, f64, f64, String)> {
    let num = |e: &str, n: &str| attr(e, n).parse::<f64>().unwrap();
    svg.lines()
        .filter(|l| l.starts_with("<rect"))
        .map(|e| {
            (
                num(e, "x"),
                num(e, "y"),
                num(e, "width"),
                num(e, "height"),
                attr(e, "fill").to_owned(),
            )
        })
        .collect()
}

/// The heat-map squares: the only large filled squares of the picture.
fn squares(svg: &str) -> Vec<(f64, f64, f64, f64, String)> {
    rects(svg)
        .into_iter()
        .filter(|r| (r.2 - r.3).abs() < 0.5 && r.2 >= 20.0 && r.4 != "none")
        .collect()
}

/// Where the cell number `content` (grey text) is written: its x and y.
fn number_at(svg: &str, content: &str) -> (f64, f64) {
    let lines: Vec<&str> = svg.lines().collect();
    let i = (1..lines.len())
        .find(|&i| lines[i] == content && lines[i - 1].contains("fill=\"#444444\""))
        .unwrap_or_else(|| panic!("cell number {content:?} not drawn"));
    (attr(lines[i - 1], "x").parse().unwrap(), attr(lines[i - 1], "y").parse().unwrap())
}

#[test]
fn the_svg_plot_has_a_bar_per_turn_and_a_square_per_cell() {
    let path = temp("mb.svg");
    let run = snl(&["analyze", "--board", "milton-bradley", "--plot", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("written to"), "{}", run.stdout);
    let svg = std::fs::read_to_string(&path).unwrap();
    // One bar per turn from the fewest (7) to the 99.9% quantile, all in the bar colour, plus
    // the legend's swatch of that colour.
    let v = snl_json(&["analyze", "--board", "milton-bradley", "--json"]);
    let by = v["p_finish_by"].as_array().unwrap();
    let q999 = by.iter().position(|p| p.as_f64().unwrap() >= 0.999 - 1e-12).unwrap();
    let bars = svg.matches("fill=\"#3B6EA8\"").count() - 1;
    assert_eq!(bars, q999 - 7 + 1);
    // One square per cell, the finish in grey.
    let squares = squares(&svg);
    assert_eq!(squares.len(), 100);
    assert_eq!(squares.iter().filter(|s| s.4 == "#C8C8C8").count(), 1);
    // Cell numbers are written in their squares, over the arrows of the jumps.
    for cell in ["\n100\n</text>", "\n47\n</text>", "\n1\n</text>"] {
        assert!(svg.contains(cell), "{cell:?} missing");
    }
    // The 19 jumps' arrowheads come before the first number; the key's two after.
    let first_number = svg.find("\n1\n</text>").unwrap();
    assert_eq!(svg[..first_number].matches("<polygon").count(), 19);
    assert_eq!(svg.matches("<polygon").count(), 19 + 2);
    // A key and a colour scale.
    for text in ["ladder: foot to top", "snake: head to tail", "cell 100: the finish", "0.673"] {
        assert!(svg.contains(text), "{text:?} missing");
    }
}

#[test]
fn the_darkest_square_is_the_cell_the_caption_names() {
    for board in ["milton-bradley", "kids", "classic"] {
        let path = temp(&format!("{board}-dark.svg"));
        let run = snl(&["analyze", "--board", board, "--plot", path.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let svg = std::fs::read_to_string(&path).unwrap();
        let caption = svg.lines().find(|l| l.starts_with("darkest: cell ")).expect("a caption");
        let cell = caption["darkest: cell ".len()..].split(',').next().unwrap();
        // The darkest square by its colour: the least red, green and blue together.
        let darkness = |fill: &str| {
            let rgb = u32::from_str_radix(&fill[1..], 16).unwrap();
            765 - ((rgb >> 16) + ((rgb >> 8) & 0xff) + (rgb & 0xff))
        };
        let squares = squares(&svg);
        let darkest = squares.iter().max_by_key(|s| darkness(&s.4)).unwrap();
        let (x, y) = number_at(&svg, cell);
        assert!(
            darkest.0 <= x
                && x < darkest.0 + darkest.2
                && darkest.1 <= y
                && y < darkest.1 + darkest.3,
            "{board}: the caption names cell {cell} at ({x}, {y}); the darkest square is {darkest:?}"
        );
        // And the text agrees with the JSON: the most landed-on cell but the last.
        let v = snl_json(&["analyze", "--board", board, "--json"]);
        let landings: Vec<f64> = v["expected_landings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let most = (1..landings.len() - 1)
            .max_by(|&a, &b| landings[a].total_cmp(&landings[b]).then(b.cmp(&a)))
            .unwrap();
        assert_eq!(cell, most.to_string(), "{board}");
    }
}

#[test]
fn with_seats_the_plot_shows_each_seats_chance_and_round() {
    let path = temp("seats.svg");
    let run = snl(&[
        "analyze",
        "--board",
        "milton-bradley",
        "--player",
        "Ann:easy",
        "--player",
        "Bob:easy",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&path).unwrap();
    // The same chances as the text, in the key of the rounds and beside the bars.
    let ann = |l: &str| l.starts_with("  Ann ") && l.ends_with(" 50.79%");
    assert!(run.stdout.lines().any(ann), "{}", run.stdout);
    for text in ["\nAnn: 50.79%\n", "\nBob: 49.21%\n", "\n50.79%\n", "\n49.21%\n", "round k"] {
        assert!(svg.contains(text), "{text:?} missing");
    }
    // One line per seat, in the seats' colours.
    for color in ["#0072B2", "#E69F00"] {
        assert!(
            svg.contains(&format!(
                "<polyline fill=\"none\" opacity=\"1\" stroke=\"{color}\" stroke-width=\"3\""
            )),
            "{color}"
        );
    }
    let png = temp("seats.png");
    let run = snl(&[
        "analyze",
        "--board",
        "kids",
        "--player",
        "A:easy",
        "--player",
        "B:easy",
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = std::fs::read(&png).unwrap();
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!(height, 1160, "a second row for the seats");
}

#[test]
fn a_plot_that_cannot_be_written_is_refused_before_any_work() {
    // A board this large would take minutes to analyse: the answer comes at once.
    for plot in ["/no/such/folder/p.png", "lengths.jpg"] {
        let run = snl(&["analyze", "--board", "random", "--size", "1000000", "--plot", plot]);
        assert_fails(&run, 2, &[plot]);
    }
    let run = snl(&["analyze", "--plot", "/no/such/folder/p.svg"]);
    assert_fails(
        &run,
        2,
        &["cannot plot to '/no/such/folder/p.svg'", "folder '/no/such/folder' does not exist"],
    );
    let folder = temp("a-folder.svg");
    std::fs::create_dir_all(&folder).unwrap();
    let run = snl(&["analyze", "--plot", folder.to_str().unwrap()]);
    assert_fails(&run, 2, &["a-folder.svg", "is a folder"]);
}

#[test]
fn the_png_plot_is_a_real_image() {
    let path = temp("classic.png");
    let run = snl(&["analyze", "--board", "classic", "--plot", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // Width and height from the IHDR chunk.
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (1400, 680));
    assert!(bytes.len() > 20_000, "a drawn picture, not a blank one: {} bytes", bytes.len());
}
