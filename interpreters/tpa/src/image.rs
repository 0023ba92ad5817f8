//! Sprites: up to 17 pixels wide, up to three opaque colours plus transparent, from a PNG or a
//! text grid. Pixel values are 0 (transparent) or 1..=3, the index into the sprite's palette;
//! the converter prints colour 1 with J, 2 with T and 3 with L.

use retro_screen::Rgb;

use crate::field::{HEIGHT, WIDTH};

/// The widest sprite: the printer cannot make squares in the outer two columns on either side
/// (J, T and L cannot all reach them; the platform's closing piece passes there).
pub const MAX_WIDTH: usize = WIDTH - 4;

/// Why a file is not a printable sprite.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("the image is {0} pixels wide; the printer prints at most {MAX_WIDTH}")]
    TooWide(usize),
    #[error("the image is {0} pixels tall; the field has {HEIGHT} rows")]
    TooTall(usize),
    #[error("the image has {0} opaque colours; the printer has three (J, T and L)")]
    TooManyColours(usize),
    #[error("the image has no opaque pixels: there is nothing to print")]
    Empty,
    #[error("not a PNG the printer can read: {0}")]
    Png(String),
    #[error("line {line}: {msg}")]
    Text { line: usize, msg: String },
}

/// A sprite. Row 0 is the top row, as in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
    /// The colours of pixel values 1, 2 and 3.
    pub palette: [Rgb; 3],
}

/// Colours for text grids that name none: red, green and blue, as on most sprite editors' first
/// three entries.
pub const DEFAULT_PALETTE: [Rgb; 3] = [
    Rgb(0xD8, 0x28, 0x00),
    Rgb(0x00, 0xA8, 0x00),
    Rgb(0x20, 0x38, 0xEC),
];

/// The height of a text grid that has outgrown the field: the rows kept so far and those still
/// to come, without trailing blank lines, comments or colour lines (counted, not kept, so a huge
/// grid costs no memory).
fn text_height<'a>(rows: &[Vec<char>], rest: impl Iterator<Item = &'a str>) -> usize {
    let mut height = rows.len() - rows.iter().rev().take_while(|r| r.is_empty()).count();
    let mut blank = rows.len() - height;
    for line in rest.map(str::trim_end) {
        if line.starts_with('#') || line.starts_with("colour ") {
            continue;
        }
        if line.is_empty() {
            blank += 1;
        } else {
            height += blank + 1;
            blank = 0;
        }
    }
    height
}

impl Image {
    /// An image from pixel values (row 0 at the top); checks the size and values.
    pub fn new(width: usize, height: usize, pixels: Vec<u8>, palette: [Rgb; 3]) -> Result<Image, ImageError> {
        if width > MAX_WIDTH {
            return Err(ImageError::TooWide(width));
        }
        if height > HEIGHT {
            return Err(ImageError::TooTall(height));
        }
        assert_eq!(pixels.len(), width * height, "pixel count matches the size");
        if let Some(&v) = pixels.iter().find(|&&v| v > 3) {
            return Err(ImageError::TooManyColours(v as usize));
        }
        Ok(Image {
            width,
            height,
            pixels,
            palette,
        })
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }

    /// The pixel at column x, row y (row 0 at the top): 0 transparent, 1..=3 a colour.
    pub fn get(&self, x: usize, y: usize) -> u8 {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x]
        } else {
            0
        }
    }

    /// Reads a PNG: pixels with alpha below 128 are transparent, every other distinct RGB is a
    /// colour (at most three, numbered in reading order).
    pub fn from_png(bytes: &[u8]) -> Result<Image, ImageError> {
        let png_err = |e: png::DecodingError| ImageError::Png(e.to_string());
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        // Small sprites only: refuse to allocate for anything big before looking at it.
        decoder.set_limits(png::Limits { bytes: 1 << 20 });
        let mut reader = decoder.read_info().map_err(png_err)?;
        let (w, h) = {
            let info = reader.info();
            (info.width as usize, info.height as usize)
        };
        if w > MAX_WIDTH {
            return Err(ImageError::TooWide(w));
        }
        if h > HEIGHT {
            return Err(ImageError::TooTall(h));
        }
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| ImageError::Png("image too large".into()))?;
        let mut buf = vec![0; size];
        let info = reader.next_frame(&mut buf).map_err(png_err)?;
        let channels = match info.color_type {
            png::ColorType::Grayscale => 1,
            png::ColorType::GrayscaleAlpha => 2,
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            png::ColorType::Indexed => return Err(ImageError::Png("palette was not expanded".into())),
        };
        let mut colours: Vec<Rgb> = Vec::new();
        let mut pixels = Vec::with_capacity(w * h);
        for y in 0..h {
            for x in 0..w {
                let p = &buf[y * info.line_size + x * channels..][..channels];
                let (rgb, alpha) = match channels {
                    1 => (Rgb(p[0], p[0], p[0]), 255),
                    2 => (Rgb(p[0], p[0], p[0]), p[1]),
                    3 => (Rgb(p[0], p[1], p[2]), 255),
                    _ => (Rgb(p[0], p[1], p[2]), p[3]),
                };
                if alpha < 128 {
                    pixels.push(0);
                    continue;
                }
                let i = match colours.iter().position(|&c| c == rgb) {
                    Some(i) => i,
                    None => {
                        colours.push(rgb);
                        colours.len() - 1
                    }
                };
                pixels.push((i + 1).min(255) as u8);
            }
        }
        if colours.len() > 3 {
            return Err(ImageError::TooManyColours(colours.len()));
        }
        let mut palette = DEFAULT_PALETTE;
        palette[..colours.len()].copy_from_slice(&colours);
        Image::new(w, h, pixels, palette)
    }

    /// Reads a text grid: one line per pixel row, `.` for transparent and any other character
    /// for a colour (at most three different ones, numbered in reading order). Lines starting
    /// with `#` are comments; `colour C #RRGGBB` gives character C's colour.
    pub fn from_text(text: &str) -> Result<Image, ImageError> {
        let mut rows: Vec<Vec<char>> = Vec::new();
        let mut named: Vec<(char, Rgb)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix("colour ") {
                let err = || ImageError::Text {
                    line: n + 1,
                    msg: format!("bad colour line '{line}' (want: colour C #RRGGBB)"),
                };
                let mut words = rest.split_whitespace();
                let (Some(c), Some(hex), None) = (words.next(), words.next(), words.next()) else {
                    return Err(err());
                };
                let mut cs = c.chars();
                let (Some(c), None) = (cs.next(), cs.next()) else {
                    return Err(err());
                };
                let rgb = parse_hex(hex).ok_or_else(err)?;
                named.push((c, rgb));
                continue;
            }
            if line.is_empty() && rows.is_empty() {
                continue;
            }
            let chars: Vec<char> = line.chars().collect();
            if chars.len() > MAX_WIDTH {
                return Err(ImageError::TooWide(chars.len()));
            }
            rows.push(chars);
            if rows.len() > HEIGHT {
                return Err(ImageError::TooTall(text_height(&rows, text.lines().skip(n + 1))));
            }
        }
        while rows.last().is_some_and(|r| r.is_empty()) {
            rows.pop();
        }
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut symbols: Vec<char> = Vec::new();
        let mut pixels = Vec::with_capacity(width * rows.len());
        for row in &rows {
            for x in 0..width {
                let c = row.get(x).copied().unwrap_or('.');
                if c == '.' || c == ' ' {
                    pixels.push(0);
                    continue;
                }
                let i = match symbols.iter().position(|&s| s == c) {
                    Some(i) => i,
                    None => {
                        symbols.push(c);
                        symbols.len() - 1
                    }
                };
                pixels.push((i + 1).min(255) as u8);
            }
        }
        if symbols.len() > 3 {
            return Err(ImageError::TooManyColours(symbols.len()));
        }
        let mut palette = DEFAULT_PALETTE;
        for (i, s) in symbols.iter().enumerate() {
            if let Some(&(_, rgb)) = named.iter().find(|(c, _)| c == s) {
                palette[i] = rgb;
            }
        }
        Image::new(width, rows.len(), pixels, palette)
    }
}

/// Parses `#RRGGBB`.
pub fn parse_hex(s: &str) -> Option<Rgb> {
    let h = s.strip_prefix('#')?;
    if h.len() != 6 || !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let v = u32::from_str_radix(h, 16).ok()?;
    Some(Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_grids_number_colours_in_reading_order() {
        let img = Image::from_text("# a heart\ncolour r #FF0000\n.r.r.\nrrwrr\n.rrr.\n..r..\n").unwrap();
        assert_eq!((img.width(), img.height()), (5, 4));
        assert_eq!(img.get(1, 0), 1);
        assert_eq!(img.get(2, 1), 2);
        assert_eq!(img.get(0, 0), 0);
        assert_eq!(img.palette[0], Rgb(255, 0, 0));
        assert_eq!(img.palette[1], DEFAULT_PALETTE[1]);
    }

    #[test]
    fn text_grids_that_cannot_print_say_why() {
        assert_eq!(Image::from_text("abcd\n"), Err(ImageError::TooManyColours(4)));
        assert_eq!(Image::from_text(&"x".repeat(18)), Err(ImageError::TooWide(18)));
        assert_eq!(Image::from_text(&"x\n".repeat(43)), Err(ImageError::TooTall(43)));
        // The real height, however tall (issue 32: it said 43 for any grid).
        assert_eq!(
            Image::from_text(&"x\n".repeat(500)),
            Err(ImageError::TooTall(500))
        );
        let grid = format!("{}# a comment\n\nx\n\n\n", "x\n".repeat(60));
        assert_eq!(Image::from_text(&grid), Err(ImageError::TooTall(62)));
        assert!(matches!(
            Image::from_text("colour xx #FF0000\n"),
            Err(ImageError::Text { line: 1, .. })
        ));
        assert!(matches!(
            Image::from_text("colour x #FF00\n"),
            Err(ImageError::Text { line: 1, .. })
        ));
    }

    fn encode(w: u32, h: u32, rgba: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().unwrap();
        wr.write_image_data(rgba).unwrap();
        wr.finish().unwrap();
        out
    }

    #[test]
    fn pngs_with_alpha_read_as_sprites() {
        let px = [[255, 0, 0, 255], [0, 0, 0, 0], [0, 255, 0, 255], [255, 0, 0, 255]];
        let bytes = encode(2, 2, &px.concat());
        let img = Image::from_png(&bytes).unwrap();
        assert_eq!(
            (img.get(0, 0), img.get(1, 0), img.get(0, 1), img.get(1, 1)),
            (1, 0, 2, 1)
        );
        assert_eq!(img.palette[0], Rgb(255, 0, 0));
        assert_eq!(img.palette[1], Rgb(0, 255, 0));
    }

    #[test]
    fn pngs_that_cannot_print_say_why() {
        let four: Vec<u8> = [[1, 0, 0, 255], [2, 0, 0, 255], [3, 0, 0, 255], [4, 0, 0, 255]].concat();
        assert_eq!(
            Image::from_png(&encode(4, 1, &four)),
            Err(ImageError::TooManyColours(4))
        );
        assert_eq!(
            Image::from_png(&encode(18, 1, &[0; 18 * 4])),
            Err(ImageError::TooWide(18))
        );
        assert!(matches!(Image::from_png(b"not a png"), Err(ImageError::Png(_))));
    }
}
