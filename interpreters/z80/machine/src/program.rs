//! A program for the workbench: its bytes and where they go, its entry point, and (when it was
//! assembled from source) the symbols, source map and source text the debugger shows.

use std::path::PathBuf;

use retro_z80_asm::{Assembly, SourceMap, SymbolTable};

use crate::workbench::Workbench;

/// A loadable program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// (address, bytes) blocks, loaded in order.
    pub blocks: Vec<(u16, Vec<u8>)>,
    /// Where execution starts.
    pub entry: u16,
    pub symbols: SymbolTable,
    pub source_map: SourceMap,
    /// Source files: path and text, as the assembler read them.
    pub files: Vec<(PathBuf, String)>,
}

impl Program {
    /// A program from an assembly: entry at the address `END addr` names, else at the first ORG
    /// (the first block written).
    pub fn from_assembly(asm: &Assembly) -> Program {
        Program {
            blocks: asm.blocks.clone(),
            entry: asm
                .entry
                .unwrap_or_else(|| asm.blocks.first().map_or(asm.origin, |b| b.0)),
            symbols: asm.symbols.clone(),
            source_map: asm.source_map.clone(),
            files: asm
                .files
                .iter()
                .map(|f| (f.path.clone(), f.text.clone()))
                .collect(),
        }
    }

    /// A raw binary loaded at `org`, entered there.
    pub fn from_binary(bytes: Vec<u8>, org: u16) -> Program {
        Program {
            blocks: vec![(org, bytes)],
            entry: org,
            ..Program::default()
        }
    }

    /// Sets the entry point to a label. Errors name the label.
    pub fn set_entry_label(&mut self, label: &str) -> Result<(), String> {
        self.entry = self
            .symbols
            .get(label)
            .ok_or_else(|| format!("no label `{label}` in the program"))?;
        Ok(())
    }

    /// Loads the blocks and starts the CPU at the entry point. A program assembled from a file
    /// gets a save area named after it (`tetris.asm`: `z80/tetris.sav` in the user's data
    /// directory, [`crate::ports::save_path`]).
    pub fn load_into(&self, m: &mut Workbench) {
        for (addr, bytes) in &self.blocks {
            m.load(*addr, bytes);
        }
        m.start(self.entry);
        let path = self
            .files
            .first()
            .and_then(|(p, _)| p.file_stem())
            .and_then(|s| crate::ports::save_path(&s.to_string_lossy()));
        m.state.dev.save = path.map(|path| {
            Box::new(crate::ports::SaveArea {
                path: Some(path),
                ..Default::default()
            })
        });
    }

    /// The text of a (1-based) source line.
    pub fn source_line(&self, file: &std::path::Path, line: u32) -> Option<&str> {
        let (_, text) = self.files.iter().find(|(p, _)| p == file)?;
        text.lines().nth(line.checked_sub(1)? as usize)
    }
}
