//! PLOT: points, lines, triangles, rectangles, parallelograms, circles and fills.
//!
//! A PLOT code `k` is a shape (`k & !7`) and a mode (`k & 7`): bit 2 set means the coordinates
//! are absolute (from the graphics origin), clear means relative to the graphics cursor; the low
//! two bits choose the colour: 0 move only, 1 the foreground with its GCOL action, 2 invert,
//! 3 the background with its action. Shapes are drawn in pixels, clipped to the graphics window.

use super::GraphicsScreen;

impl GraphicsScreen {
    /// VDU 25,k,x;y;
    pub(crate) fn plot(&mut self, k: u8, x: i32, y: i32) {
        // Relative plots accumulate without bound in a long-running program; wrapping keeps them
        // from overflowing (the far-off point is simply off the screen).
        let base = if k & 4 != 0 { self.origin } else { self.gcur };
        let to = (base.0.wrapping_add(x), base.1.wrapping_add(y));
        let colour = match k & 3 {
            1 => Some((self.gfg, self.gfg_act)),
            2 => Some((0, 4)),
            3 => Some((self.gbg, self.gbg_act)),
            _ => None,
        };
        if let Some((c, a)) = colour {
            let from = self.gcur;
            let p = |s: &Self, q: (i32, i32)| (s.px_x(q.0), s.px_y(q.1));
            let (p0, p1, pp) = (p(self, from), p(self, to), p(self, self.gprev));
            match k & 0xF8 {
                // Lines: bit 3 leaves out the last point, bit 5 the first (the dotted
                // variants, 16-31 and 48-63, are drawn solid).
                s @ 0..=63 => self.line(p0, p1, s & 32 != 0, s & 8 != 0, c, a),
                64 => self.plot_px(p1.0, p1.1, c, a),
                72 => self.hfill(p1, true, |v, s| v == s.gbg, c, a),
                80 => self.triangle(pp, p0, p1, c, a),
                88 => self.hfill(p1, false, |v, s| v != s.gbg, c, a),
                96 => self.rect(p0, p1, c, a),
                104 => self.hfill(p1, true, |v, s| v != s.gfg, c, a),
                112 => {
                    // The fourth corner completes the parallelogram opposite the middle point.
                    let p3 = (
                        pp.0.wrapping_add(p1.0).wrapping_sub(p0.0),
                        pp.1.wrapping_add(p1.1).wrapping_sub(p0.1),
                    );
                    self.triangle(pp, p0, p1, c, a);
                    self.triangle(pp, p1, p3, c, a);
                }
                120 => self.hfill(p1, false, |v, s| v == s.gfg, c, a),
                128 => self.flood(p1, |v, s| v == s.gbg, c, a),
                136 => self.flood(p1, |v, s| v != s.gfg, c, a),
                144 | 152 => {
                    let (dx, dy) = (to.0 as f64 - from.0 as f64, to.1 as f64 - from.1 as f64);
                    let r = (dx * dx + dy * dy).sqrt();
                    self.circle(from, r, k & 0xF8 == 152, c, a);
                }
                // Arcs, segments, sectors, block copies and ellipses are not drawn; the
                // cursor still moves.
                _ => {}
            }
        }
        self.gprev = self.gcur;
        self.gcur = to;
    }

    /// A straight line between pixel positions (Bresenham), optionally without its ends.
    fn line(&mut self, p0: (i32, i32), p1: (i32, i32), skip_first: bool, skip_last: bool, c: u8, a: u8) {
        // Far-off ends (relative plots can wander anywhere) are first cut to the graphics
        // window, so the walk never steps through millions of invisible pixels.
        const NEAR: i32 = 1 << 15;
        let far = |p: (i32, i32)| p.0.abs() > NEAR || p.1.abs() > NEAR;
        let (p0, p1, skip_first, skip_last) = if far(p0) || far(p1) {
            match self.clip(p0, p1) {
                Some((q0, q1)) => (q0, q1, skip_first && q0 == p0, skip_last && q1 == p1),
                None => return,
            }
        } else {
            (p0, p1, skip_first, skip_last)
        };
        let (mut x, mut y) = p0;
        let (dx, dy) = ((p1.0 - x).abs(), -(p1.1 - y).abs());
        let (sx, sy) = (if x < p1.0 { 1 } else { -1 }, if y < p1.1 { 1 } else { -1 });
        let mut err = dx + dy;
        let mut first = true;
        loop {
            let last = (x, y) == p1;
            if !((first && skip_first) || (last && skip_last)) {
                self.plot_px(x, y, c, a);
            }
            if last {
                break;
            }
            first = false;
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// The part of the segment p0-p1 inside the graphics window (Liang-Barsky), or `None`.
    fn clip(&self, p0: (i32, i32), p1: (i32, i32)) -> Option<((i32, i32), (i32, i32))> {
        let w = self.gwin;
        let (x0, y0) = (p0.0 as f64, p0.1 as f64);
        let (dx, dy) = (p1.0 as f64 - x0, p1.1 as f64 - y0);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [
            (-dx, x0 - w.x0 as f64),
            (dx, w.x1 as f64 - x0),
            (-dy, y0 - w.y0 as f64),
            (dy, w.y1 as f64 - y0),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    t0 = t0.max(r);
                } else {
                    t1 = t1.min(r);
                }
            }
        }
        if t0 > t1 {
            return None;
        }
        let at = |t: f64| ((x0 + t * dx).round() as i32, (y0 + t * dy).round() as i32);
        Some((
            if t0 == 0.0 { p0 } else { at(t0) },
            if t1 == 1.0 { p1 } else { at(t1) },
        ))
    }

    fn span(&mut self, y: i32, xa: i32, xb: i32, c: u8, a: u8) {
        let (x0, x1) = (xa.min(xb).max(self.gwin.x0), xa.max(xb).min(self.gwin.x1));
        for x in x0..=x1 {
            self.plot_px(x, y, c, a);
        }
    }

    fn rect(&mut self, p0: (i32, i32), p1: (i32, i32), c: u8, a: u8) {
        let (y0, y1) = (p0.1.min(p1.1).max(self.gwin.y0), p0.1.max(p1.1).min(self.gwin.y1));
        for y in y0..=y1 {
            self.span(y, p0.0, p1.0, c, a);
        }
    }

    /// A filled triangle: each pixel row from the top vertex to the bottom one, between the
    /// leftmost and rightmost crossings of the three edges.
    fn triangle(&mut self, p: (i32, i32), q: (i32, i32), r: (i32, i32), c: u8, a: u8) {
        let top = p.1.min(q.1).min(r.1).max(self.gwin.y0);
        let bottom = p.1.max(q.1).max(r.1).min(self.gwin.y1);
        for y in top..=bottom {
            let mut lo = i32::MAX;
            let mut hi = i32::MIN;
            for (u, v) in [(p, q), (q, r), (r, p)] {
                if y < u.1.min(v.1) || y > u.1.max(v.1) {
                    continue;
                }
                let xs = if u.1 == v.1 {
                    [u.0, v.0]
                } else {
                    let t = (y as f64 - u.1 as f64) / (v.1 as f64 - u.1 as f64);
                    let x = (u.0 as f64 + t * (v.0 as f64 - u.0 as f64)).round() as i32;
                    [x, x]
                };
                lo = lo.min(xs[0]).min(xs[1]);
                hi = hi.max(xs[0]).max(xs[1]);
            }
            if lo <= hi {
                self.span(y, lo, hi, c, a);
            }
        }
    }

    /// A circle about `centre` (units) of radius `r` (units), outline or filled. Each pixel row
    /// and each pixel column crossing the circle contributes its crossing points, so the
    /// outline has no gaps at any slope.
    fn circle(&mut self, centre: (i32, i32), r: f64, fill: bool, c: u8, a: u8) {
        let (xe, ye) = (self.m.xeig, self.m.yeig);
        let (cx, cy) = (centre.0 as f64, centre.1 as f64);
        let h = self.m.height as i32;
        // Rows.
        let (ytop, ybot) = (self.px_y((cy + r) as i32), self.px_y((cy - r).ceil() as i32));
        for py in ytop.max(self.gwin.y0)..=ybot.min(self.gwin.y1) {
            let gy = ((h - 1 - py) << ye) as f64;
            let d = r * r - (gy - cy) * (gy - cy);
            if d < 0.0 {
                continue;
            }
            let dx = d.sqrt();
            let (xa, xb) = (((cx - dx).round() as i32) >> xe, ((cx + dx).round() as i32) >> xe);
            if fill {
                self.span(py, xa, xb, c, a);
            } else {
                self.plot_px(xa, py, c, a);
                if xb != xa {
                    self.plot_px(xb, py, c, a);
                }
            }
        }
        if fill {
            return;
        }
        // Columns.
        let (xl, xr) = (((cx - r).ceil() as i32) >> xe, ((cx + r) as i32) >> xe);
        for px in xl.max(self.gwin.x0)..=xr.min(self.gwin.x1) {
            let gx = (px << xe) as f64;
            let d = r * r - (gx - cx) * (gx - cx);
            if d < 0.0 {
                continue;
            }
            let dy = d.sqrt();
            let (ya, yb) = (
                self.px_y((cy + dy).round() as i32),
                self.px_y((cy - dy).round() as i32),
            );
            self.plot_px(px, ya, c, a);
            if yb != ya {
                self.plot_px(px, yb, c, a);
            }
        }
    }

    /// Horizontal line fill from `p` while `fillable` holds: both ways, or right only.
    fn hfill(&mut self, p: (i32, i32), both: bool, fillable: fn(u8, &Self) -> bool, c: u8, a: u8) {
        let ok = |s: &Self, x: i32| {
            s.gwin.contains(x, p.1) && fillable(s.px[p.1 as usize * s.m.width + x as usize], s)
        };
        if !ok(self, p.0) {
            return;
        }
        let (mut l, mut r) = (p.0, p.0);
        while both && ok(self, l - 1) {
            l -= 1;
        }
        while ok(self, r + 1) {
            r += 1;
        }
        self.span(p.1, l, r, c, a);
    }

    /// Flood fill from `p` over the 4-connected pixels where `fillable` holds.
    fn flood(&mut self, p: (i32, i32), fillable: fn(u8, &Self) -> bool, c: u8, a: u8) {
        let w = self.m.width;
        let mut seen = vec![false; self.px.len()];
        let mut stack = vec![p];
        let mut todo = Vec::new();
        while let Some((x, y)) = stack.pop() {
            if !self.gwin.contains(x, y) {
                continue;
            }
            let i = y as usize * w + x as usize;
            if seen[i] || !fillable(self.px[i], self) {
                continue;
            }
            seen[i] = true;
            todo.push((x, y));
            stack.extend([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
        }
        // Paint after the search, so the action's results never steer it.
        for (x, y) in todo {
            self.plot_px(x, y, c, a);
        }
    }
}
