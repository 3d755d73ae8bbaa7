//! A game ready to be played at a table (the console's or the full screen's), and where it is kept.

use std::path::PathBuf;

use snl_session::Session;
use snl_store::GameId;

/// A session ready to be played, and what to tell around it.
#[derive(Debug)]
pub struct Seated {
    pub session: Session,
    /// Where the game is kept, to tell people how to go on.
    pub kept: Kept,
    /// Whether to tell the seed at the end (a new game whose seed nobody chose).
    pub tell_seed: bool,
    /// A line to show before the first turn.
    pub intro: Option<String>,
}

/// Where a game is kept.
#[derive(Clone, Debug, Default)]
pub struct Kept {
    pub game_id: Option<GameId>,
    pub db: Option<PathBuf>,
    pub save: Option<PathBuf>,
}

impl Kept {
    /// How to go on with a stopped game, for people.
    pub fn how_to_go_on(&self) -> Option<String> {
        let mut ways = Vec::new();
        if let Some(id) = self.game_id {
            ways.push(format!("snl resume {id}"));
        }
        if let Some(path) = &self.save {
            ways.push(format!("snl play --load {}", path.display()));
        }
        (!ways.is_empty()).then(|| format!("Go on with: {}", ways.join(", or ")))
    }
}
