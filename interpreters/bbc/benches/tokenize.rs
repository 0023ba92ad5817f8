//! Tokenizer and detokenizer throughput on a large generated program (`cargo bench -p retro-bbc`).
//! Throughput is reported per byte of listing text.

use divan::Bencher;
use divan::counter::BytesCount;
use retro_bbc::{Mode, Program, list, tokenize_program};

fn main() {
    divan::main();
}

/// A program of about 1 MB of listing: 20,000 lines mixing the things real programs hold
/// (keywords, names, numbers, strings, line-number constants, pseudo-variables, REM, DATA).
fn listing() -> String {
    let statements = [
        "FOR i%=1 TO 100 STEP 2:total=total+i%*RND(6):NEXT",
        "IF score%>hiscore% THEN hiscore%=score% ELSE GOTO 100",
        "PRINT TAB(10,2);\"Score: \";score%;\" Lives: \";lives%",
        "REPEAT:key$=INKEY$(10):UNTIL key$<>\"\" OR TIME>endtime%",
        "DEF PROCdraw(x%,y%,c%):GCOL 0,c%:RECTANGLE FILL x%*32,y%*32,31,31:ENDPROC",
        "ON choice% GOSUB 1000,2000,3000 ELSE PRINT \"Bad choice\"",
        "REM the main loop: move the player, then the monsters",
        "DATA 12,34,56,&FF,\"level one\",PRINT,GOTO",
        "TIME=0:PTR#file%=0:a$=LEFT$(name$,3)+MID$(name$,5)+STR$(ABS(x-y))",
        "CASE dir% OF:WHEN 8:x%-=1:WHEN 9:x%+=1:OTHERWISE:VDU 7:ENDCASE",
    ];
    let mut text = String::new();
    for n in 0..20_000usize {
        text.push_str(&format!("{:5} {}\n", 10 + n, statements[n % statements.len()]));
    }
    text
}

#[divan::bench]
fn tokenize(bencher: Bencher<'_, '_>) {
    let text = listing();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| tokenize_program(divan::black_box(&text), Mode::Strict).unwrap());
}

#[divan::bench]
fn tokenize_crunch(bencher: Bencher<'_, '_>) {
    let text = listing();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| tokenize_program(divan::black_box(&text), Mode::Crunch).unwrap());
}

#[divan::bench]
fn detokenize(bencher: Bencher<'_, '_>) {
    let text = listing();
    let program = tokenize_program(&text, Mode::Strict).unwrap();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| list(divan::black_box(&program)));
}

#[divan::bench]
fn read_file(bencher: Bencher<'_, '_>) {
    let bytes = tokenize_program(&listing(), Mode::Strict).unwrap().to_bytes();
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| Program::from_bytes(divan::black_box(&bytes)).unwrap());
}
