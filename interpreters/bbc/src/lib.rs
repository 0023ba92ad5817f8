//! BBC BASIC V in the RISC OS dialect: the tokenizer and detokenizer, program files, and (to come)
//! the token-stream interpreter and the VDU system. Usable as a library without a terminal.
pub mod interp;
