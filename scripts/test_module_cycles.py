#!/usr/bin/env python3
"""Self-test of module-cycles.py on small crates written to a temporary directory, so the CI check
cannot pass by finding nothing: run as `python3 scripts/test_module_cycles.py`."""

import importlib.util
import io
import os
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("module_cycles", os.path.join(HERE, "module-cycles.py"))
mc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mc)
# The repository's own allowed findings do not apply to the crates written here.
mc.ALLOWED = {}


def write_crate(root, files):
    for path, text in files.items():
        full = os.path.join(root, "interpreters", "toy", path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def run(files):
    with tempfile.TemporaryDirectory() as root:
        write_crate(root, {"Cargo.toml": "[package]\nname = \"toy\"\n", **files})
        out = io.StringIO()
        with redirect_stdout(out):
            status = mc.main(["module-cycles.py", root])
        return status, out.getvalue()


class ModuleCycles(unittest.TestCase):
    def finds(self, files, present=(), absent=()):
        """Runs the check on `files`: it fails (status 1) when `present` names findings, passes
        otherwise; every text of `present` is in its report and none of `absent` is."""
        status, out = run(files)
        self.assertEqual(status, 1 if present else 0, out)
        for text in present:
            self.assertIn(text, out)
        for text in absent:
            self.assertNotIn(text, out)

    def test_one_way_crate_passes(self):
        self.finds({
            "src/lib.rs": "pub mod a;\npub mod b;\n",
            "src/a.rs": "use crate::b::Thing;\n",
            "src/b.rs": "pub struct Thing;\n",
        }, absent=["cycle in"])

    def test_sibling_cycle_is_found(self):
        self.finds({
            "src/lib.rs": "pub mod a;\npub mod b;\n",
            "src/a.rs": "use crate::b::Thing;\npub struct Other;\n",
            "src/b.rs": "pub struct Thing;\nfn f() -> crate::a::Other { todo!() }\n",
        }, present=["cycle in interpreters/toy: a <-> b", "src/b.rs:2 crate::a::Other"])

    def test_a_submodule_reference_counts_for_its_parent(self):
        # interp/vdu.rs names crate::vdu and vdu/ names crate::interp::vdu: the cycle interp <-> vdu.
        self.finds({
            "src/lib.rs": "pub mod interp;\npub mod vdu;\n",
            "src/interp/mod.rs": "pub mod vdu;\n",
            "src/interp/vdu.rs": "pub trait Driver {}\nfn f() { crate::vdu::Screen::new(); }\n",
            "src/vdu/mod.rs": "use crate::interp::vdu::Driver;\npub struct Screen;\n",
        }, present=["interp <-> vdu"])

    def test_parent_and_child_are_no_cycle(self):
        self.finds({
            "src/lib.rs": "pub mod asm;\n",
            "src/asm.rs": "mod dir;\npub struct Asm;\nfn f() { dir::g(); }\n",
            "src/asm/dir.rs": "use super::Asm;\npub fn g() {}\n",
        })

    def test_reexport_is_followed(self):
        self.finds({
            "src/lib.rs": "pub mod a;\npub mod b;\npub use a::Thing;\n",
            "src/a.rs": "pub struct Thing;\nfn f() { crate::b::g(); }\n",
            "src/b.rs": "use crate::Thing;\npub fn g() {}\n",
        }, present=["a <-> b"])

    def test_private_import_alias_is_followed(self):
        # interp imports tokens as `tok`; its child names `super::tok`, and tokens names interp.
        self.finds({
            "src/lib.rs": "pub mod interp;\npub mod tokens;\n",
            "src/interp/mod.rs": "mod stmt;\nuse crate::tokens as tok;\npub struct Interp;\n",
            "src/interp/stmt.rs": "use super::tok;\nfn f() -> u8 { tok::PRINT }\n",
            "src/tokens.rs": "pub const PRINT: u8 = 0xF1;\nfn g(_: crate::interp::Interp) {}\n",
        }, present=["interp -> tokens: interpreters/toy/src/interp/mod.rs:2 crate::tokens (+1 more)"])

    def test_super_glob_outside_tests_only(self):
        self.finds({
            "src/lib.rs": "mod a;\n",
            "src/a.rs": "mod t;\nmod u;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
            "src/a/t.rs": "use super::*;\n",
            "src/a/u.rs": "// use super::*;\nconst S: &str = \"use super::*;\";\n",
        }, present=["use super::* in interpreters/toy/src/a/t.rs"], absent=["src/a.rs", "u.rs"])

    def test_test_module_file_is_skipped(self):
        self.finds({
            "src/lib.rs": "pub mod a;\npub mod b;\n#[cfg(test)]\nmod tests;\n",
            "src/a.rs": "use crate::b::Thing;\npub struct Other;\n",
            "src/b.rs": "pub struct Thing;\n#[cfg(test)]\nfn f() -> crate::a::Other { todo!() }\n",
            "src/tests.rs": "use super::*;\nuse crate::a::*;\n",
        })

    def test_glob_of_another_module(self):
        self.finds({
            "src/lib.rs": "pub mod a;\npub mod b;\n",
            "src/a.rs": "pub enum K { X, Y }\npub use K::*;\n",
            "src/b.rs": "use crate::a::*;\n",
        }, present=["glob import in interpreters/toy/src/b.rs"], absent=["glob import in interpreters/toy/src/a.rs"])


if __name__ == "__main__":
    unittest.main()
