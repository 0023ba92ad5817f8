//! Palettes as data: logical colour index -> RGB, with RISC OS's flashing pairs.

/// A 24-bit colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// One palette entry: a steady colour, or a colour that flashes between two (RISC OS colours 8-15
/// in the 16-colour modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaletteEntry {
    Solid(Rgb),
    Flash(Rgb, Rgb),
}

impl PaletteEntry {
    /// The colour shown in the given half of the flash cycle.
    pub fn rgb(self, phase: bool) -> Rgb {
        match self {
            PaletteEntry::Solid(c) => c,
            PaletteEntry::Flash(a, b) => {
                if phase {
                    b
                } else {
                    a
                }
            }
        }
    }
}

/// Logical colours of a screen.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Palette {
    pub entries: Vec<PaletteEntry>,
}

const BLACK: Rgb = Rgb(0, 0, 0);
const RED: Rgb = Rgb(255, 0, 0);
const GREEN: Rgb = Rgb(0, 255, 0);
const YELLOW: Rgb = Rgb(255, 255, 0);
const BLUE: Rgb = Rgb(0, 0, 255);
const MAGENTA: Rgb = Rgb(255, 0, 255);
const CYAN: Rgb = Rgb(0, 255, 255);
const WHITE: Rgb = Rgb(255, 255, 255);

/// The eight Acorn physical colours in colour-number order (0 black .. 7 white).
pub const ACORN_PHYSICAL: [Rgb; 8] = [BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE];

impl Palette {
    /// The RGB of logical colour `index` in the given flash phase; indexes past the end wrap, as
    /// a machine's colour numbers do (`COLOUR 17` in a 16-colour mode is colour 1).
    pub fn rgb(&self, index: u8, phase: bool) -> Rgb {
        if self.entries.is_empty() {
            return BLACK;
        }
        self.entries[index as usize % self.entries.len()].rgb(phase)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The RISC OS default 16-colour palette (MODE 9, 12, ...): 0-7 the steady colours, 8-15 the
    /// flashing pairs (black/white, red/cyan, green/magenta, yellow/blue and back).
    pub fn acorn16() -> Palette {
        let mut entries: Vec<PaletteEntry> = ACORN_PHYSICAL.iter().map(|&c| PaletteEntry::Solid(c)).collect();
        for i in 0..8 {
            entries.push(PaletteEntry::Flash(ACORN_PHYSICAL[i], ACORN_PHYSICAL[7 - i]));
        }
        Palette { entries }
    }

    /// The default palettes of the 2- and 4-colour Acorn modes: black/white, and
    /// black/red/yellow/white.
    pub fn acorn2() -> Palette {
        Palette {
            entries: vec![PaletteEntry::Solid(BLACK), PaletteEntry::Solid(WHITE)],
        }
    }

    pub fn acorn4() -> Palette {
        Palette {
            entries: [BLACK, RED, YELLOW, WHITE]
                .iter()
                .map(|&c| PaletteEntry::Solid(c))
                .collect(),
        }
    }

    /// The Commodore 64's 16 colours (the "Pepto" VIC-II measurements, the values most emulators
    /// default to), in VIC-II colour-number order.
    pub fn c64() -> Palette {
        const C64: [Rgb; 16] = [
            Rgb(0x00, 0x00, 0x00), // 0 black
            Rgb(0xFF, 0xFF, 0xFF), // 1 white
            Rgb(0x68, 0x37, 0x2B), // 2 red
            Rgb(0x70, 0xA4, 0xB2), // 3 cyan
            Rgb(0x6F, 0x3D, 0x86), // 4 purple
            Rgb(0x58, 0x8D, 0x43), // 5 green
            Rgb(0x35, 0x28, 0x79), // 6 blue
            Rgb(0xB8, 0xC7, 0x6F), // 7 yellow
            Rgb(0x6F, 0x4F, 0x25), // 8 orange
            Rgb(0x43, 0x39, 0x00), // 9 brown
            Rgb(0x9A, 0x67, 0x59), // 10 light red
            Rgb(0x44, 0x44, 0x44), // 11 dark grey
            Rgb(0x6C, 0x6C, 0x6C), // 12 grey
            Rgb(0x9A, 0xD2, 0x84), // 13 light green
            Rgb(0x6C, 0x5E, 0xB5), // 14 light blue
            Rgb(0x95, 0x95, 0x95), // 15 light grey
        ];
        Palette {
            entries: C64.iter().map(|&c| PaletteEntry::Solid(c)).collect(),
        }
    }

    /// The Z80 workbench machine's 16 colours, as the ZX Spectrum's: 0-7 normal (black, blue, red,
    /// magenta, green, cyan, yellow, white at 0xD7), 8-15 the BRIGHT versions (0xFF).
    pub fn z80_workbench() -> Palette {
        let mut entries = Vec::with_capacity(16);
        for bright in [false, true] {
            let v = if bright { 0xFF } else { 0xD7 };
            for i in 0u8..8 {
                // Spectrum colour bits: 1 = blue, 2 = red, 4 = green.
                let b = if i & 1 != 0 { v } else { 0 };
                let r = if i & 2 != 0 { v } else { 0 };
                let g = if i & 4 != 0 { v } else { 0 };
                entries.push(PaletteEntry::Solid(Rgb(r, g, b)));
            }
        }
        Palette { entries }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acorn16_steady_colours_do_not_flash() {
        let p = Palette::acorn16();
        assert_eq!(p.len(), 16);
        for i in 0..8 {
            assert_eq!(p.rgb(i, false), ACORN_PHYSICAL[i as usize]);
            assert_eq!(p.rgb(i, true), ACORN_PHYSICAL[i as usize]);
        }
    }

    #[test]
    fn acorn16_flashing_pairs() {
        let p = Palette::acorn16();
        // Colour 9 flashes red/cyan, 8 black/white, 11 yellow/blue, 15 white/black.
        assert_eq!((p.rgb(9, false), p.rgb(9, true)), (RED, CYAN));
        assert_eq!((p.rgb(8, false), p.rgb(8, true)), (BLACK, WHITE));
        assert_eq!((p.rgb(11, false), p.rgb(11, true)), (YELLOW, BLUE));
        assert_eq!((p.rgb(15, false), p.rgb(15, true)), (WHITE, BLACK));
        assert_eq!(p.entries[9], PaletteEntry::Flash(RED, CYAN));
    }

    #[test]
    fn colour_numbers_wrap_around_the_palette() {
        // COLOUR 17 in a 16-colour mode is colour 1; COLOUR 5 in MODE 0 (two colours) is 1.
        assert_eq!(Palette::acorn16().rgb(17, false), RED);
        assert_eq!(Palette::acorn16().rgb(25, true), CYAN);
        assert_eq!(Palette::acorn2().rgb(5, false), WHITE);
        assert_eq!(Palette::acorn4().rgb(6, false), YELLOW);
        assert_eq!(Palette::acorn4().rgb(255, false), WHITE);
        assert_eq!(Palette { entries: vec![] }.rgb(3, false), BLACK);
    }

    #[test]
    fn c64_and_z80_palettes() {
        let c64 = Palette::c64();
        assert_eq!(c64.len(), 16);
        assert_eq!(c64.rgb(0, false), BLACK);
        assert_eq!(c64.rgb(1, false), WHITE);
        assert_eq!(c64.rgb(6, false), Rgb(0x35, 0x28, 0x79)); // the blue of the start-up screen
        let z = Palette::z80_workbench();
        assert_eq!(z.rgb(2, false), Rgb(0xD7, 0, 0)); // Spectrum red: colour bit 1
        assert_eq!(z.rgb(1, false), Rgb(0, 0, 0xD7)); // blue: bit 0
        assert_eq!(z.rgb(4, false), Rgb(0, 0xD7, 0)); // green: bit 2
        assert_eq!(z.rgb(15, false), WHITE);
        assert_eq!(z.rgb(8, false), BLACK); // bright black is still black
    }
}
