//! Random arithmetic expressions: the interpreter (tokenizing `PRINT expr` and running it)
//! prints exactly what the float routines compute for the same tree, error for error. The float
//! routines are checked against cbmbasic on 100,000 random expressions (tests/float_golden.rs),
//! so this ties the interpreter's parsing, precedence and operand handling to the ROM's numbers.
//! Each case runs one tiny program; CI runs 100,000 cases.

use proptest::prelude::*;
use retro_cbm::Program;
use retro_cbm::float::{Fac, FloatError};
use retro_cbm::interp::{BasicError, InputSource, Stop};
use retro_cbm::machine::{CbmMachine, ControlCodes, Options, petscii_to_text};

#[derive(Debug, Clone)]
enum Expr {
    Lit(&'static str),
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
    Func(&'static str, Box<Expr>),
}

const LITERALS: [&str; 12] = [
    "1", "2", "3", "7", ".5", "2.5", "10", "1e3", ".1", "100", "1.7", "33",
];
const FUNCS: [&str; 10] = [
    "sqr", "log", "exp", "sin", "cos", "tan", "atn", "int", "abs", "sgn",
];

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop::sample::select(&LITERALS[..]).prop_map(Expr::Lit);
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|e| Expr::Neg(Box::new(e))),
            (
                prop::sample::select(&['+', '-', '*', '/', '^'][..]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| Expr::Bin(op, Box::new(a), Box::new(b))),
            (prop::sample::select(&FUNCS[..]), inner).prop_map(|(f, e)| Expr::Func(f, Box::new(e))),
        ]
    })
}

impl Expr {
    fn text(&self) -> String {
        match self {
            Expr::Lit(s) => s.to_string(),
            Expr::Neg(e) => format!("-({})", e.text()),
            Expr::Bin(op, a, b) => format!("({}){op}({})", a.text(), b.text()),
            Expr::Func(f, e) => format!("{f}({})", e.text()),
        }
    }

    /// The value, computing in the ROM's order (left operand, right operand, operator) with
    /// CHARAC ($07) threaded through as the machine keeps it: INT, EXP, SIN, COS, TAN, SQR
    /// and `^` write it, and `^` of a negative number to a power of 2^31 or more takes its
    /// sign from it.
    fn eval(&self, charac: &mut u8) -> Result<Fac, FloatError> {
        Ok(match self {
            Expr::Lit(s) => Fac::parse(s.to_ascii_uppercase().as_bytes())?.value,
            Expr::Neg(e) => e.eval(charac)?.negated(),
            Expr::Bin(op, a, b) => {
                let a = a.eval(charac)?;
                let b = b.eval(charac)?;
                match op {
                    '+' => a.plus(b)?,
                    '-' => a.minus(b)?,
                    '*' => a.times(b)?,
                    '/' => a.divided_by(b)?,
                    _ => a.pow_charac(b, charac)?,
                }
            }
            Expr::Func(f, e) => {
                let v = e.eval(charac)?;
                match *f {
                    "sqr" => v.sqr_charac(charac)?,
                    "log" => v.log()?,
                    "exp" => v.exp_charac(charac)?,
                    "sin" => v.sin_charac(charac)?,
                    "cos" => v.cos_charac(charac)?,
                    "tan" => v.tan_charac(charac)?,
                    "atn" => v.atn()?,
                    "int" => v.int_charac(charac),
                    "abs" => v.abs(),
                    _ => v.sgn(),
                }
            }
        })
    }
}

fn run(source: &str) -> (String, Option<Stop>) {
    let p = Program::from_text(source).unwrap();
    let mut m = CbmMachine::new(
        &p,
        InputSource::Stream(Box::new(std::io::empty())),
        Options::default(),
    )
    .unwrap();
    let stop = m.run_to_end(1_000);
    let mut text = String::new();
    petscii_to_text(&m.take_petscii(), ControlCodes::Omit, &mut text);
    (text, stop)
}

proptest! {
    #[test]
    fn print_shows_what_the_float_routines_compute(e in expr()) {
        let text = e.text();
        let (out, stop) = run(&format!("10 print {text}\n"));
        // CHARAC is 0 when RUN starts.
        match e.eval(&mut 0) {
            Ok(v) => {
                prop_assert_eq!(out, format!("{} \n", v.fout().as_str()), "{}", text);
                prop_assert_eq!(stop, Some(Stop::End));
            }
            Err(err) => {
                prop_assert_eq!(out, "");
                prop_assert_eq!(stop, Some(Stop::Error(BasicError::from(err), Some(10))), "{}", text);
            }
        }
    }
}
