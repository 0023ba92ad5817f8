//! A Z80 CPU core and the machines built on it. The CPU knows nothing of terminals or machines: it
//! talks to the world through a bus trait.
