//! Shared by the Connect-4 tests: calling the routines through the debugger core, and the Rust
//! model of the rules.
#![allow(dead_code)] // each test binary uses its own part

pub mod harness;
pub mod model;

use harness::Z80;
use model::Board;

/// Instructions any one routine may take before the harness calls it stuck.
pub const BUDGET: u64 = 200_000;

/// Puts a position into GAMESTRUCT: the board, the player to check and the last piece's slot.
pub fn load(z: &mut Z80, board: &Board, x: usize, y: usize, player: u8) {
    let gs = z.sym("GAMESTRUCT");
    let b = z.sym("Board");
    for (i, &v) in board.cells.iter().enumerate() {
        z.poke(b + i as u16, v);
    }
    z.poke(gs + z.sym("CURRENTPoff"), player);
    z.poke(gs + z.sym("CURRENTSoff"), x as u8);
    z.poke(gs + z.sym("LASTYoff"), y as u8);
}

/// GAMESTRUCT's bytes, the board included.
pub fn game_struct(z: &Z80) -> Vec<u8> {
    let gs = z.sym("GAMESTRUCT");
    let end = z.sym("Board") + (z.size.w * z.size.h) as u16;
    (gs..end).map(|a| z.peek(a)).collect()
}

/// Calls a win check (checkWIN, checkWINgeneral, or one of the checks that take B = X, C = Y)
/// and returns true for A = 0 ("N in a row"), false for A = FFh; any other A fails the test, and
/// so does a write to any byte of memory but pieceCount (the routine's own stack aside).
pub fn check(z: &mut Z80, routine: &str, x: usize, y: usize) -> bool {
    let gs = z.sym("GAMESTRUCT");
    z.call(routine, &[("B", x as u16), ("C", y as u16), ("IY", gs)], BUDGET)
        .unwrap_or_else(|e| panic!("{e}"));
    let count = z.sym("pieceCount");
    let stray: Vec<_> = z.changed().iter().filter(|c| c.0 != count).collect();
    assert!(
        stray.is_empty(),
        "{routine} wrote to memory beyond pieceCount: {stray:?}"
    );
    match z.a() {
        0 => true,
        0xFF => false,
        a => panic!("{routine} returned A={a:02X}, neither 0 nor FFh"),
    }
}
