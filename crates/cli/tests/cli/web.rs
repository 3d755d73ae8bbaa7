//! `snl web export DIR`: the browser game written as a static site.

use crate::util::{TempDir, assert_fails, snl};

#[test]
fn web_export_writes_the_pages_assets_engine_worker_and_manifest() {
    let dir = TempDir::new("web-export");
    let site = dir.file("site");
    let run = snl(&["web", "export", &site]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("wrote "), "{}", run.stdout);
    let site = dir.path().join("site");
    for page in ["index.html", "local/index.html", "editor/index.html", "replay/index.html"] {
        let html = std::fs::read_to_string(site.join(page)).unwrap();
        assert!(html.contains("/assets/") && !html.contains("{{v}}"), "{page}");
    }
    let worker = std::fs::read_to_string(site.join("sw.js")).unwrap();
    assert!(worker.contains(r#"["/","/local/","/editor/","/replay/"]"#), "{worker}");
    assert!(worker.contains("engine.wasm") && !worker.contains("{{"), "{worker}");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("manifest.webmanifest")).unwrap())
            .unwrap();
    assert_eq!(manifest["display"], "standalone");
    let assets = std::fs::read_dir(site.join("assets")).unwrap().count();
    assert_eq!(assets, 1, "one version of the assets");
}

#[test]
fn web_export_into_a_file_is_refused_in_one_sentence() {
    let dir = TempDir::new("web-export-file");
    let file = dir.file("taken");
    std::fs::write(&file, "x").unwrap();
    assert_fails(&snl(&["web", "export", &file]), 2, &["is a file, not a folder"]);
}
