//! Screen modes: geometry, colours and default palettes of the RISC OS numbered modes 0-15.

use retro_screen::palette::{ACORN_PHYSICAL, Palette, PaletteEntry, Rgb};

/// What a numbered screen mode looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModeInfo {
    pub number: u8,
    /// Pixels across and down.
    pub width: usize,
    pub height: usize,
    /// Pixels per text character cell: always 8x8. The BBC Micro drew the 25-row modes (3, 6,
    /// 7, 11, 14) with two blank lines under each row; here their rows are 8 pixels like the
    /// others (200 pixels, 800 graphics units tall), so every text cell is one font character
    /// that the renderers and text dumps can read back.
    pub char_w: usize,
    pub char_h: usize,
    /// Logical colours: 2, 4, 16 or 256.
    pub colours: usize,
    /// Graphics units per pixel as a shift (RISC OS XEigFactor / YEigFactor): MODE 9 is 2 and 2,
    /// so 320x256 pixels are 1280x1024 units.
    pub xeig: u32,
    pub yeig: u32,
}

impl ModeInfo {
    /// The mode's description, or `None` for a mode number this driver does not provide (RISC OS
    /// says "Screen mode not available"; the driver then keeps the current mode).
    pub fn of(mode: u8) -> Option<ModeInfo> {
        // (width, height, char_h, colours, xeig, yeig)
        let (w, h, ch, c, xe, ye) = match mode {
            0 => (640, 256, 8, 2, 1, 2),
            1 => (320, 256, 8, 4, 2, 2),
            2 => (160, 256, 8, 16, 3, 2),
            3 => (640, 200, 8, 2, 1, 2),
            4 => (320, 256, 8, 2, 2, 2),
            5 => (160, 256, 8, 4, 3, 2),
            6 => (320, 200, 8, 2, 2, 2),
            // Teletext is shown as a 40x25 16-colour text screen (no mosaic control codes).
            7 => (320, 200, 8, 16, 2, 2),
            8 => (640, 256, 8, 4, 1, 2),
            9 => (320, 256, 8, 16, 2, 2),
            10 => (160, 256, 8, 256, 3, 2),
            11 => (640, 200, 8, 4, 1, 2),
            12 => (640, 256, 8, 16, 1, 2),
            13 => (320, 256, 8, 256, 2, 2),
            14 => (640, 200, 8, 16, 1, 2),
            15 => (640, 256, 8, 256, 1, 2),
            _ => return None,
        };
        Some(ModeInfo {
            number: mode,
            width: w,
            height: h,
            char_w: 8,
            char_h: ch,
            colours: c,
            xeig: xe,
            yeig: ye,
        })
    }

    /// Text columns and rows.
    pub fn text_size(&self) -> (usize, usize) {
        (self.width / self.char_w, self.height / self.char_h)
    }

    /// The mask a COLOUR or GCOL number is ANDed with (`COLOUR 17` in MODE 9 is colour 1). In
    /// 256-colour modes the number is one of 64 colours; the tint supplies the low bits.
    pub fn colour_mask(&self) -> u8 {
        match self.colours {
            256 => 63,
            n => (n - 1) as u8,
        }
    }

    /// The default text and graphics foreground: white (colour 1, 3, 7, or 63 in 256 colours).
    pub fn default_fg(&self) -> u8 {
        match self.colours {
            2 => 1,
            4 => 3,
            16 => 7,
            _ => 63,
        }
    }

    /// Shape of one pixel: MODE 0's are twice as tall as wide, MODE 2's twice as wide as tall.
    pub fn pixel_aspect(&self) -> (u8, u8) {
        let m = self.xeig.min(self.yeig);
        (1 << (self.xeig - m), 1 << (self.yeig - m))
    }

    /// The default palette (what VDU 20 restores).
    pub fn default_palette(&self) -> Vec<PaletteEntry> {
        match self.colours {
            2 => Palette::acorn2().entries,
            4 => Palette::acorn4().entries,
            16 => Palette::acorn16().entries,
            _ => (0..=255u8).map(|p| PaletteEntry::Solid(rgb256(p))).collect(),
        }
    }
}

/// The colour of pixel value `p` in the 256-colour modes: the pixel is a 6-bit colour number
/// (bits 0-1 red, 2-3 green, 4-5 blue, as COLOUR and GCOL take it) shifted up by two, with the
/// two-bit tint below it; each component is its two colour bits and the tint as a 4-bit level.
pub fn rgb256(p: u8) -> Rgb {
    let tint = p & 3;
    let c = p >> 2;
    let level = |bits: u8| ((bits & 3) << 2 | tint) * 17;
    Rgb(level(c), level(c >> 2), level(c >> 4))
}

/// The physical colour a VDU 19 number 0-15 names: 0-7 steady, 8-15 the flashing pairs.
pub fn physical(p: u8) -> PaletteEntry {
    let i = (p & 7) as usize;
    if p & 8 == 0 {
        PaletteEntry::Solid(ACORN_PHYSICAL[i])
    } else {
        PaletteEntry::Flash(ACORN_PHYSICAL[i], ACORN_PHYSICAL[7 - i])
    }
}
