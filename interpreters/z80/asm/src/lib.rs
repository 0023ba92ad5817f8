//! The Z80 instruction set as data (one typed instruction model), an assembler and a disassembler.
