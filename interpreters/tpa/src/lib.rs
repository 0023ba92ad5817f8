//! The Tetris Printer Algorithm (Michael Birken's idea, implemented here from its description):
//! a small sprite of up to three colours becomes a sequence of ordinary Tetris drops that prints
//! it, row by row from the bottom, by building blocks of full rows that clear and leave single
//! squares behind.
//!
//! - [`piece`]: the 19 orientations (NES numbering) and [`field`]: the 21x42 playfield.
//! - [`search`]: the packed-matrix search that finds drop sequences.
//! - [`pattern`]: the stored emitters and platforms, in our own text format.
//! - [`image`]: sprites from PNG or text grids; [`convert`]: sprite -> drop sequence;
//!   [`sequence`]: the sequence file format; [`replay`]: plays a sequence on the field, drop by
//!   drop, as a [`retro_machine::machine::Machine`] the front end can show.

pub mod convert;
pub mod field;
pub mod image;
pub mod pattern;
pub mod piece;
pub mod replay;
pub mod search;
pub mod sequence;
