//! `retro debug` in the terminal: source (or disassembly) with the current line and breakpoint
//! marks, registers and flags, the stack, watches/displays, the machine's screen, and a command
//! line that takes the same commands as `--script` (docs/debugger.md). It waits for keys without
//! busy-waiting and fits 80x24.

use anyhow::Result;
use ratatui::Frame as TermFrame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use retro_screen::colour;
use retro_z80_machine::debug::commands::{Flow, Session as Commands, console_text};
use retro_z80_machine::debug::views;

use super::terminal::Session;
use super::view::FrameView;

/// Keys and what they do, for the footer and the help overlay.
const KEYS: &[(&str, &str, &str)] = &[
    ("F5", "continue", "continue"),
    ("F10", "next", "step over"),
    ("F11", "stepi", "step into"),
    ("Shift-F11 / F8", "finish", "step out"),
    ("F7", "reverse-step", "step back"),
    ("Shift-F7 / F6", "reverse-continue", "back to the last breakpoint"),
    ("F9", "", "breakpoint on/off at the PC"),
    ("F2", "", "the machine's screen, full size"),
    ("F1 / ?", "", "this help"),
    ("Enter", "", "run the command (empty: repeat the last)"),
    ("Ctrl-Q", "quit", "leave"),
];

struct Ui {
    line: String,
    output: Vec<String>,
    help: bool,
    screen: bool,
    quit: bool,
}

/// Runs the debugger UI until `quit` or Ctrl-Q; the terminal is restored on every path.
pub fn run(cmds: &mut Commands) -> Result<()> {
    let mut session = Session::start()?;
    let depth = colour::detect(
        std::env::var("COLORTERM").ok().as_deref(),
        std::env::var("TERM").ok().as_deref(),
    );
    let mut ui = Ui {
        line: String::new(),
        output: vec!["retro debug: type a command (help for the list), F1 for keys.".into()],
        help: false,
        screen: false,
        quit: false,
    };
    while !ui.quit {
        session.terminal.draw(|f| draw(f, cmds, &ui, depth))?;
        // Blocks until a key or a resize: an idle debugger costs nothing.
        match event::read()? {
            Event::Key(k) if k.kind != KeyEventKind::Release => key(k, cmds, &mut ui),
            _ => {}
        }
    }
    Ok(())
}

fn execute(cmds: &mut Commands, ui: &mut Ui, command: &str) {
    ui.output.push(format!("(z80) {command}"));
    let out = cmds.execute(command);
    let console = console_text(&cmds.dbg.machine.take_console());
    ui.output.extend(console.lines().map(String::from));
    ui.output.extend(out.text.lines().map(String::from));
    if out.flow == Flow::Quit {
        ui.quit = true;
    }
    cmds.last = Some(command.to_string());
    let excess = ui.output.len().saturating_sub(500);
    ui.output.drain(..excess);
}

fn key(k: KeyEvent, cmds: &mut Commands, ui: &mut Ui) {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    let shift = k.modifiers.contains(KeyModifiers::SHIFT);
    if ui.help || ui.screen {
        // Any key closes an overlay (Ctrl-Q still quits).
        ui.help = false;
        ui.screen = false;
        if !(ctrl && k.code == KeyCode::Char('q')) {
            return;
        }
    }
    let command = match k.code {
        KeyCode::Char('q') if ctrl => {
            ui.quit = true;
            return;
        }
        KeyCode::F(5) => "continue",
        KeyCode::F(10) => "next",
        KeyCode::F(11) if shift => "finish",
        KeyCode::F(11) => "stepi",
        KeyCode::F(8) => "finish",
        KeyCode::F(7) if shift => "reverse-continue",
        KeyCode::F(6) => "reverse-continue",
        KeyCode::F(7) => "reverse-step",
        KeyCode::F(9) => {
            toggle_breakpoint(cmds, ui);
            return;
        }
        KeyCode::F(1) => {
            ui.help = true;
            return;
        }
        KeyCode::Char('?') if ui.line.is_empty() => {
            ui.help = true;
            return;
        }
        KeyCode::F(2) => {
            ui.screen = true;
            return;
        }
        KeyCode::Esc => {
            ui.line.clear();
            return;
        }
        KeyCode::Backspace => {
            ui.line.pop();
            return;
        }
        KeyCode::Enter => {
            let line = std::mem::take(&mut ui.line);
            let line = if line.trim().is_empty() {
                cmds.last.clone().unwrap_or_default()
            } else {
                line
            };
            if !line.trim().is_empty() {
                execute(cmds, ui, line.trim());
            }
            return;
        }
        KeyCode::Char(c) if !ctrl => {
            if ui.line.len() < 200 {
                ui.line.push(c);
            }
            return;
        }
        _ => return,
    };
    execute(cmds, ui, command);
}

fn toggle_breakpoint(cmds: &mut Commands, ui: &mut Ui) {
    let pc = cmds.dbg.machine.cpu().pc();
    let existing: Vec<u32> = cmds.dbg.breakpoints.exec_at(pc).map(|b| b.id).collect();
    if existing.is_empty() {
        execute(cmds, ui, &format!("break ${pc:04X}"));
    } else {
        for id in existing {
            execute(cmds, ui, &format!("delete {id}"));
        }
    }
}

fn draw(f: &mut TermFrame<'_>, cmds: &Commands, ui: &Ui, depth: colour::ColourDepth) {
    let area = f.area();
    let d = &cmds.dbg;
    if ui.screen {
        let frame = d.machine.cell_frame();
        f.render_widget(FrameView { frame: &frame, depth }, area);
        return;
    }
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Min(8),
            Constraint::Length(6),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .split(area);
    let top = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Min(30), Constraint::Length(44)])
        .split(rows[0]);
    let right = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(5), Constraint::Min(3), Constraint::Length(4)])
        .split(top[1]);

    // Source around the PC, or the disassembly when there is no source.
    let pc = d.machine.cpu().pc();
    let height = top[0].height.saturating_sub(2) as u32;
    let code = views::source_around(d, pc, height / 3, height)
        .unwrap_or_else(|| views::disassemble(d, pc, height as usize));
    let title = format!(" {} ", views::describe(d, pc));
    let lines: Vec<Line<'_>> = code
        .lines()
        .map(|l| {
            if l.starts_with("=>") {
                Line::from(Span::styled(
                    l.to_string(),
                    Style::default().add_modifier(Modifier::REVERSED),
                ))
            } else {
                Line::from(l.to_string())
            }
        })
        .collect();
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        top[0],
    );

    let regs = views::registers(
        &d.machine.cpu().registers(),
        &d.previous,
        d.machine.cpu().tstates(),
    );
    f.render_widget(
        Paragraph::new(compact_registers(&regs))
            .block(Block::default().borders(Borders::TOP).title(" registers ")),
        right[0],
    );
    let stack = views::stack(d, right[1].height as usize);
    f.render_widget(
        Paragraph::new(stack).block(Block::default().borders(Borders::TOP).title(" stack ")),
        right[1],
    );
    let watches = (0..d.displays.len())
        .map(|i| {
            let e = &d.displays[i];
            let v = retro_z80_machine::debug::expr::eval_str(e, &views::MachineEnv::new(d))
                .map_or_else(|err| format!("<{err}>"), |v| v.to_string());
            format!("{e} = {v}")
        })
        .collect::<Vec<_>>()
        .join("\n");
    f.render_widget(
        Paragraph::new(watches).block(Block::default().borders(Borders::TOP).title(" display ")),
        right[2],
    );

    let out_h = rows[1].height as usize;
    let start = ui.output.len().saturating_sub(out_h);
    f.render_widget(Paragraph::new(ui.output[start..].join("\n")), rows[1]);
    f.render_widget(Paragraph::new(format!("(z80) {}_", ui.line)), rows[2]);
    f.render_widget(
        Paragraph::new("F5 cont F10 next F11 step S-F11 finish F7 back F9 break F2 screen F1 help ^Q quit")
            .style(Style::default().add_modifier(Modifier::REVERSED)),
        rows[3],
    );
    if ui.help {
        let w = area.width.min(70);
        let h = area.height.min(KEYS.len() as u16 + 4);
        let r = Rect::new(
            area.x + (area.width - w) / 2,
            area.y + (area.height - h) / 2,
            w,
            h,
        );
        let mut text: Vec<Line<'_>> = KEYS
            .iter()
            .map(|(k, c, what)| {
                let cmd = if c.is_empty() {
                    String::new()
                } else {
                    format!(" ({c})")
                };
                Line::from(format!("{k:<15} {what}{cmd}"))
            })
            .collect();
        text.push(Line::from(
            "Commands as in --script: help lists them. Any key closes this.",
        ));
        f.render_widget(Clear, r);
        f.render_widget(
            Paragraph::new(text).block(Block::default().borders(Borders::ALL).title(" keys ")),
            r,
        );
    }
}

/// The register view squeezed into 42 columns.
fn compact_registers(full: &str) -> String {
    let words: Vec<&str> = full.split_whitespace().collect();
    let mut s = String::new();
    let mut width = 0;
    for w in words {
        if width + w.len() + 1 > 42 || w == "flags:" {
            s.push('\n');
            width = 0;
        }
        if width > 0 {
            s.push(' ');
            width += 1;
        }
        s.push_str(w);
        width += w.len();
    }
    s
}
