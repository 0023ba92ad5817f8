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

    fn eval(&self) -> Result<Fac, FloatError> {
        Ok(match self {
            Expr::Lit(s) => Fac::parse(s.to_ascii_uppercase().as_bytes())?.value,
            Expr::Neg(e) => e.eval()?.negated(),
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval()?, b.eval()?);
                match op {
                    '+' => a.plus(b)?,
                    '-' => a.minus(b)?,
                    '*' => a.times(b)?,
                    '/' => a.divided_by(b)?,
                    _ => a.pow(b)?,
                }
            }
            Expr::Func(f, e) => {
                let v = e.eval()?;
                match *f {
                    "sqr" => v.sqr()?,
                    "log" => v.log()?,
                    "exp" => v.exp()?,
                    "sin" => v.sin()?,
                    "cos" => v.cos()?,
                    "tan" => v.tan()?,
                    "atn" => v.atn()?,
                    "int" => v.int(),
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
        match e.eval() {
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
