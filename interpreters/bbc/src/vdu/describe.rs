//! The VDU variables as a debugger shows them: cursors, windows, colours and the mode.

use super::GraphicsScreen;

impl GraphicsScreen {
    /// One fact a line, in the terms of the VDU calls that set them.
    pub(super) fn describe_state(&self) -> Vec<String> {
        let (l, b, r, t) = self.twin;
        let g = self.gwin;
        vec![
            format!(
                "MODE {} ({}x{} characters, {}x{} pixels, {} colours)",
                self.m.number,
                self.m.width / self.m.char_w,
                self.m.height / self.m.char_h,
                self.m.width,
                self.m.height,
                self.m.colours
            ),
            format!(
                "text cursor ({}, {}) absolute, POS {} VPOS {}{}{}",
                self.tx,
                self.ty,
                super::VduDriver::pos(self),
                super::VduDriver::vpos(self),
                if self.pending_wrap { ", wrap pending" } else { "" },
                if self.cursor_on { "" } else { ", hidden" }
            ),
            format!("text window VDU 28,{l},{b},{r},{t}"),
            format!(
                "text colours: foreground pixel value {}, background {}",
                self.tfg, self.tbg
            ),
            format!(
                "graphics cursor ({}, {}) units, previous ({}, {}); origin ({}, {}){}",
                self.gcur.0,
                self.gcur.1,
                self.gprev.0,
                self.gprev.1,
                self.origin.0,
                self.origin.1,
                if self.vdu5 {
                    "; VDU 5: text at the graphics cursor"
                } else {
                    ""
                }
            ),
            format!("graphics window pixels ({},{})-({},{})", g.x0, g.y0, g.x1, g.y1),
            format!(
                "graphics colours: foreground {} (GCOL action {}), background {} (action {})",
                self.gfg, self.gfg_act, self.gbg, self.gbg_act
            ),
        ]
    }
}
