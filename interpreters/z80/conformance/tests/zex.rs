//! ZEXDOC and ZEXALL, one `#[ignore]`d test per group and program (each group is a few seconds in
//! release mode; the whole run about half a minute per program):
//! `cargo test --release -p retro-z80-conformance --test zex -- --ignored`.
//!
//! The .COM files come from cargo's registry (the `ez80` crate, a dev-dependency of
//! `retro-z80-peers`, ships both) or from $RETRO_ZEX_DIR. Without them the tests print a notice
//! and pass.

use retro_z80_conformance::zex;

fn program(name: &str) -> Option<Vec<u8>> {
    match zex::locate(name) {
        Some(path) => Some(zex::load(&path).expect("readable ZEX program")),
        None => {
            // CI must run the exercisers: there a missing file is a failure, not a pass.
            assert!(
                std::env::var_os("RETRO_REQUIRE_CONFORMANCE").is_none(),
                "{name} not found (run `cargo fetch`, or set RETRO_ZEX_DIR) and RETRO_REQUIRE_CONFORMANCE is set"
            );
            eprintln!("SKIPPED: {name} not found (run `cargo fetch` in the workspace, or set RETRO_ZEX_DIR)");
            None
        }
    }
}

fn check_group(name: &str, index: usize) {
    let Some(program) = program(name) else { return };
    let run = zex::run_group(&program, index).expect("ZEX runs");
    let text = String::from_utf8_lossy(&run.output);
    assert_eq!(run.groups.len(), 1, "one group ran:\n{text}");
    let g = &run.groups[0];
    assert_eq!(g.passed, 1, "{name} group {index} ({}) failed:\n{text}", g.name);
    assert!(text.ends_with("Tests complete"), "{text}");
}

macro_rules! zex_groups {
    ($($index:literal => $doc:ident, $all:ident;)*) => {
        $(
            #[test]
            #[ignore = "slow: run with --release -- --ignored"]
            fn $doc() {
                check_group("zexdoc.com", $index);
            }
            #[test]
            #[ignore = "slow: run with --release -- --ignored"]
            fn $all() {
                check_group("zexall.com", $index);
            }
        )*
    };
}

zex_groups! {
    0 => zexdoc_00_adc_sbc_hl, zexall_00_adc_sbc_hl;
    1 => zexdoc_01_add_hl, zexall_01_add_hl;
    2 => zexdoc_02_add_ix, zexall_02_add_ix;
    3 => zexdoc_03_add_iy, zexall_03_add_iy;
    4 => zexdoc_04_aluop_nn, zexall_04_aluop_nn;
    5 => zexdoc_05_aluop_r, zexall_05_aluop_r;
    6 => zexdoc_06_aluop_xyhl, zexall_06_aluop_xyhl;
    7 => zexdoc_07_aluop_xyd, zexall_07_aluop_xyd;
    8 => zexdoc_08_bit_xyd, zexall_08_bit_xyd;
    9 => zexdoc_09_bit_r, zexall_09_bit_r;
    10 => zexdoc_10_cpd, zexall_10_cpd;
    11 => zexdoc_11_cpi, zexall_11_cpi;
    12 => zexdoc_12_daa_cpl_scf_ccf, zexall_12_daa_cpl_scf_ccf;
    13 => zexdoc_13_incdec_a, zexall_13_incdec_a;
    14 => zexdoc_14_incdec_b, zexall_14_incdec_b;
    15 => zexdoc_15_incdec_bc, zexall_15_incdec_bc;
    16 => zexdoc_16_incdec_c, zexall_16_incdec_c;
    17 => zexdoc_17_incdec_d, zexall_17_incdec_d;
    18 => zexdoc_18_incdec_de, zexall_18_incdec_de;
    19 => zexdoc_19_incdec_e, zexall_19_incdec_e;
    20 => zexdoc_20_incdec_h, zexall_20_incdec_h;
    21 => zexdoc_21_incdec_hl, zexall_21_incdec_hl;
    22 => zexdoc_22_incdec_ix, zexall_22_incdec_ix;
    23 => zexdoc_23_incdec_iy, zexall_23_incdec_iy;
    24 => zexdoc_24_incdec_l, zexall_24_incdec_l;
    25 => zexdoc_25_incdec_mhl, zexall_25_incdec_mhl;
    26 => zexdoc_26_incdec_sp, zexall_26_incdec_sp;
    27 => zexdoc_27_incdec_xyd, zexall_27_incdec_xyd;
    28 => zexdoc_28_incdec_ixh, zexall_28_incdec_ixh;
    29 => zexdoc_29_incdec_ixl, zexall_29_incdec_ixl;
    30 => zexdoc_30_incdec_iyh, zexall_30_incdec_iyh;
    31 => zexdoc_31_incdec_iyl, zexall_31_incdec_iyl;
    32 => zexdoc_32_ld_bcde_mnn, zexall_32_ld_bcde_mnn;
    33 => zexdoc_33_ld_hl_mnn, zexall_33_ld_hl_mnn;
    34 => zexdoc_34_ld_sp_mnn, zexall_34_ld_sp_mnn;
    35 => zexdoc_35_ld_xy_mnn, zexall_35_ld_xy_mnn;
    36 => zexdoc_36_ld_mnn_bcde, zexall_36_ld_mnn_bcde;
    37 => zexdoc_37_ld_mnn_hl, zexall_37_ld_mnn_hl;
    38 => zexdoc_38_ld_mnn_sp, zexall_38_ld_mnn_sp;
    39 => zexdoc_39_ld_mnn_xy, zexall_39_ld_mnn_xy;
    40 => zexdoc_40_ld_rr_nn, zexall_40_ld_rr_nn;
    41 => zexdoc_41_ld_xy_nn, zexall_41_ld_xy_nn;
    42 => zexdoc_42_ld_a_mbcde, zexall_42_ld_a_mbcde;
    43 => zexdoc_43_ld_r_n, zexall_43_ld_r_n;
    44 => zexdoc_44_ld_xyd_n, zexall_44_ld_xyd_n;
    45 => zexdoc_45_ld_bcde_xyd, zexall_45_ld_bcde_xyd;
    46 => zexdoc_46_ld_hl_xyd, zexall_46_ld_hl_xyd;
    47 => zexdoc_47_ld_a_xyd, zexall_47_ld_a_xyd;
    48 => zexdoc_48_ld_xyhl_n, zexall_48_ld_xyhl_n;
    49 => zexdoc_49_ld_r_r, zexall_49_ld_r_r;
    50 => zexdoc_50_ld_r_r_xy, zexall_50_ld_r_r_xy;
    51 => zexdoc_51_ld_a_mnn, zexall_51_ld_a_mnn;
    52 => zexdoc_52_ldd_1, zexall_52_ldd_1;
    53 => zexdoc_53_ldd_2, zexall_53_ldd_2;
    54 => zexdoc_54_ldi_1, zexall_54_ldi_1;
    55 => zexdoc_55_ldi_2, zexall_55_ldi_2;
    56 => zexdoc_56_neg, zexall_56_neg;
    57 => zexdoc_57_rrd_rld, zexall_57_rrd_rld;
    58 => zexdoc_58_rot_a, zexall_58_rot_a;
    59 => zexdoc_59_shf_rot_xyd, zexall_59_shf_rot_xyd;
    60 => zexdoc_60_shf_rot_r, zexall_60_shf_rot_r;
    61 => zexdoc_61_set_res_r, zexall_61_set_res_r;
    62 => zexdoc_62_set_res_xyd, zexall_62_set_res_xyd;
    63 => zexdoc_63_ld_xyd_bcde, zexall_63_ld_xyd_bcde;
    64 => zexdoc_64_ld_xyd_hl, zexall_64_ld_xyd_hl;
    65 => zexdoc_65_ld_xyd_a, zexall_65_ld_xyd_a;
    66 => zexdoc_66_ld_mbcde_a, zexall_66_ld_mbcde_a;
}

/// The whole of ZEXDOC, compared byte for byte with the published output when
/// shared/conformance is at hand.
#[test]
#[ignore = "slow: run with --release -- --ignored"]
fn zexdoc_whole_run_matches_published_output() {
    let Some(program) = program("zexdoc.com") else {
        return;
    };
    let run = zex::run(&program, &mut std::io::sink()).expect("ZEX runs");
    assert_eq!(run.groups.iter().filter(|g| g.passed == 1).count(), zex::GROUPS);
    assert_eq!(run.exit.instructions, 5_764_169_474);
    assert_eq!(run.exit.tstates, 46_734_975_782);
    assert_eq!(run.exit.bdos_calls, 136);
    let expected = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../../shared/conformance/z80/zex/zexdoc.expected.txt");
    let expected = std::env::var_os("RETRO_CONFORMANCE")
        .map(|d| std::path::PathBuf::from(d).join("z80/zex/zexdoc.expected.txt"))
        .unwrap_or(expected);
    if let Ok(want) = std::fs::read(&expected) {
        assert!(run.output == want, "output differs from {}", expected.display());
    }
}

/// A ZEX group run on a non-ZEX program is refused instead of running garbage.
#[test]
fn group_runner_rejects_other_programs() {
    let not_zex = [0xC3, 0x00, 0x00];
    assert!(matches!(zex::run_group(&not_zex, 0), Err(zex::ZexError::NotZex)));
    assert!(matches!(
        zex::run_group(&not_zex, 67),
        Err(zex::ZexError::NoSuchGroup(67))
    ));
}
