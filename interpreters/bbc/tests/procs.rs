//! PROC and FN calls where the interpreter's call caches (parsed DEF headers, resolved formal
//! parameters, call sites) could diverge from reading the bytes: programs that rewrite a DEF,
//! errors that leave a routine, argument errors. Brandy cannot arbitrate these (it does not
//! restore LOCALs when ON ERROR LOCAL catches an error from an inner routine), so the expected
//! transcripts are what the byte-by-byte interpreter printed before the caches existed.

use retro_bbc::interp::{Outcome, run_text};

fn run(src: &str) -> (String, Option<String>) {
    let t = run_text(src, b"", Some(10_000_000)).expect("tokenizes");
    assert_ne!(t.outcome, Outcome::Aborted, "the program ran away");
    (t.output, t.outcome.message())
}

#[test]
fn a_rewritten_formal_parameter_name_is_bound_on_the_next_call() {
    // After the first call the DEF's formal `z` becomes `y`: later calls must bind y.
    let (out, err) = run(concat!(
        "5 y=0:z=0\n",
        "10 FOR i%=1 TO 3\n",
        "20 PROCp(i%*10)\n",
        "30 IF i%=1 THEN P%=PAGE:REPEAT P%+=1:UNTIL ?P%=ASC\"(\" AND P%?1=ASC\"z\":P%?1=ASC\"y\"\n",
        "40 NEXT\n",
        "50 PRINT z;\" \";y\n",
        "60 END\n",
        "70 DEF PROCp(z):PRINT z;\" \";y:ENDPROC\n",
    ));
    assert_eq!(err, None);
    assert_eq!(out, "        10 0\n         0 20\n         0 30\n         0 0\n");
}

#[test]
fn a_formal_made_a_return_parameter_copies_back() {
    // The space before `w` becomes the RETURN token after the second call.
    let (out, err) = run(concat!(
        "10 v=1\n",
        "20 FOR i%=1 TO 3\n",
        "30 PROCr(v):PRINT v\n",
        "40 IF i%=2 THEN P%=PAGE:REPEAT P%+=1:UNTIL ?P%=ASC\"(\" AND P%?1=ASC\" \":P%?1=&F8\n",
        "50 NEXT\n",
        "60 END\n",
        "70 DEF PROCr( w):w=w+1:ENDPROC\n",
    ));
    assert_eq!(err, None);
    assert_eq!(out, "         1\n         1\n         2\n");
}

#[test]
fn a_formal_rewritten_while_the_arguments_are_evaluated_is_read_afresh() {
    // The argument's FN renames the formal z to y between evaluating the actuals and binding
    // them: the variable resolved for z at the first call must not be used.
    let (out, err) = run(concat!(
        "10 y=0:z=0\n",
        "20 PROCp(1):PROCp(FNrw):PRINT z;\" \";y\n",
        "30 END\n",
        "40 DEF FNrw:P%=PAGE:REPEAT P%+=1:UNTIL ?P%=ASC\"(\" AND P%?1=ASC\"z\":P%?1=ASC\"y\":=5\n",
        "70 DEF PROCp(z):PRINT z;\" \";y:ENDPROC\n",
    ));
    assert_eq!(err, None);
    assert_eq!(out, "         1 0\n         0 5\n         0 0\n");
}

#[test]
fn a_parameter_list_broken_by_a_write_is_an_error_in_the_def() {
    let (out, err) = run(concat!(
        "10 FOR i%=1 TO 2\n",
        "20 PROCp(1)\n",
        "30 P%=PAGE:REPEAT P%+=1:UNTIL ?P%=ASC\"(\" AND P%?1=ASC\"a\":P%?2=ASC\",\"\n",
        "40 NEXT\n",
        "50 END\n",
        "70 DEF PROCp(a b):PRINT a:ENDPROC\n",
    ));
    assert_eq!(out, "");
    assert_eq!(
        err.as_deref(),
        Some("Arguments of function/procedure incorrect at line 70")
    );
}

#[test]
fn locals_and_formals_come_back_when_an_error_leaves_routines() {
    let (out, err) = run(concat!(
        "10 q=7:q$=\"global\":k%=-1\n",
        "20 PROCtrapfn:PRINT \"after trapfn \";q;\" \";q$;\" \";k%\n",
        "30 PROCdeep(0):PRINT \"deep \";q;\" \";q$;\" \";k%\n",
        "40 PROCbind:PRINT \"bind \";a;\" \";b$\n",
        // A global handler restores nothing; a string formal that failed to bind kept its value.
        "50 ON ERROR PRINT \"global \";ERR;\" \";s$:END\n",
        "60 s$=\"kept\":PROCs(1)\n",
        "100 DEF PROCfail(q,q$):LOCAL k%:k%=q*2:PRINT \"in fail \";q;\" \";q$;\" \";k%:ERROR 99,\"boom\"\n",
        "300 DEF PROCtrapfn:LOCAL q$:q$=\"trapfn\"\n",
        "310 ON ERROR LOCAL PRINT \"caught fn \";ERR:ENDPROC\n",
        "320 PRINT FNfail(q+1,q$)\n",
        "330 ENDPROC\n",
        "340 DEF FNfail(q,q$):LOCAL k%:k%=q:PRINT \"in fn \";q;\" \";q$;\" \";k%:=1/0\n",
        "370 DEF PROCdeep(q):LOCAL q$,k%:q$=STR$q:k%=q:ON ERROR LOCAL PRINT \"deep caught \";ERR;\" at \";q:ENDPROC\n",
        "380 IF q<5 THEN PROCdeep(q+1) ELSE PROCfail(q,q$)\n",
        "390 ENDPROC\n",
        // The second argument does not fit its formal: the first formal, already bound, is
        // restored when the handler leaves PROCbind.
        "400 DEF PROCbind:a=1:b$=\"b\":ON ERROR LOCAL PRINT \"bind \";ERR;\" \";a;\" \";b$:ENDPROC\n",
        "410 PROCt(2,3)\n",
        "420 DEF PROCt(a,b$):PRINT \"not reached\":ENDPROC\n",
        "430 DEF PROCs(s$):ENDPROC\n",
    ));
    assert_eq!(err, None);
    assert_eq!(
        out,
        concat!(
            "in fn 8 trapfn 8\n",
            "caught fn 18\n",
            "after trapfn 7 global -1\n",
            "in fail 5 5 10\n",
            "deep caught 99 at 5\n",
            "deep 7 global -1\n",
            "bind 6 1 b\n",
            "bind 1 b\n",
            "global 6 kept\n",
        )
    );
}

#[test]
fn call_errors_and_matching_rules() {
    let (out, err) = run(concat!(
        "10 ON ERROR PRINT ERR;\" \";REPORT$;\" \";ERL:IF n%>20 THEN END ELSE GOTO (20+10*n%)\n",
        "20 n%=n%+1:PROCp(1,2)\n",
        "30 n%=n%+1:PROCp\n",
        "40 n%=n%+1:PROCq(1)\n",
        "50 n%=n%+1:PRINT FNf(1,2)\n",
        "60 n%=n%+1:=5\n",
        "70 n%=n%+1:PRINT FNpr\n",
        "80 n%=n%+1:PROCfn\n",
        "90 n%=n%+1:PROCgo\n",
        "100 n%=n%+1:PRINT FNx(1)\n",
        "110 n%=n%+1:PRINT FNx(1,2)\n",
        "120 n%=n%+1:PROCnone(1)\n",
        "130 n%=n%+1:PROCr(1+1)\n",
        "140 n%=n%+1:x=FNrec(1)\n",
        "150 END\n",
        "200 DEF PROCp(a):ENDPROC\n",
        "210 DEF PROCq(a:ENDPROC\n",
        "220 DEF FNf(a)=a\n",
        "230 DEF FNpr:ENDPROC\n",
        "240 DEF PROCfn:=1\n",
        "250 DEF PROCgo:GOSUB 260:ENDPROC\n",
        "260 ENDPROC\n",
        "270 DEF FNx(a,)=1\n",
        "280 DEF PROCr(RETURN a):ENDPROC\n",
        "290 DEF FNrec(n)=FNrec(n+1)\n",
    ));
    assert_eq!(err, None);
    assert_eq!(
        out,
        concat!(
            "        31 Arguments of function/procedure incorrect 20\n",
            "        31 Arguments of function/procedure incorrect 30\n",
            "        31 Arguments of function/procedure incorrect 210\n",
            "        31 Arguments of function/procedure incorrect 50\n",
            "         7 Not in a function 60\n",
            "        13 Not in a procedure 230\n",
            "         7 Not in a function 240\n",
            "        13 Not in a procedure 260\n",
            "        31 Arguments of function/procedure incorrect 270\n",
            "        31 Arguments of function/procedure incorrect 270\n",
            "        29 No such function/procedure 120\n",
            "        16 Syntax error 130\n",
            "        37 No room for function/procedure call 290\n",
        )
    );
}

#[test]
fn calls_from_eval_and_similar_names_find_their_own_routines() {
    // EVAL's text is outside the program, where no call site is cached.
    let (out, err) = run(concat!(
        "10 FOR i=1 TO 3:PRINT EVAL(\"FNsq(\"+STR$i+\")+FNsq(1)\");\" \";EVAL(\"FNsq(i)\"):NEXT\n",
        "20 PRINT FNs(\"ab\")+FNs(\"c\");\" \";FNo(FNo(2))\n",
        "30 FOR i=1 TO 2:PROCab(1):PROCabc(2):PROCa(3):NEXT\n",
        "40 END\n",
        "50 DEF FNsq(x)=x*x\n",
        "60 DEF FNs(a$)=a$+a$\n",
        "70 DEF FNo(x)=FNsq(x)+FNsq(x+1)\n",
        "80 DEF PROCab(n):PRINT \"ab\";n:ENDPROC\n",
        "90 DEF PROCabc(n):PRINT \"abc\";n:ENDPROC\n",
        "100 DEF PROCa(n):PRINT \"a\";n:ENDPROC\n",
    ));
    assert_eq!(err, None);
    assert_eq!(
        out,
        "         2 1\n         5 4\n        10 9\nababcc 365\nab1\nabc2\na3\nab1\nabc2\na3\n"
    );
}

#[test]
fn a_lone_variable_argument_at_the_depth_limit_is_refused_like_any_expression() {
    // Each level of FNr nests two deeper; the body of the 200th starts at the limit (400), where
    // evaluating PROCp's argument, a lone variable, must fail before line 40 is reached.
    let (out, err) = run(concat!(
        "10 PRINT FNr(1)\n",
        "20 DEF FNr(n)\n",
        "30 PROCp(n)\n",
        "40 =FNr(n)\n",
        "50 DEF PROCp(a):ENDPROC\n",
    ));
    assert_eq!(out, "");
    assert_eq!(
        err.as_deref(),
        Some("No room for function/procedure call at line 30")
    );
}

#[test]
fn locals_and_formals_of_every_kind_are_saved_and_restored() {
    // Array elements, resident integers and indirection as LOCALs; formals of every type given
    // values of other numeric types.
    let (out, err) = run(concat!(
        "10 DIM a%(3),b(2),c$(2):a%(1)=5:b(2)=2.5:c$(1)=\"s\":x=1:y%=2:z$=\"z\":A%=9:!&3000=77\n",
        "20 PROCl:PRINT a%(1);\" \";b(2);\" \";c$(1);\" \";x;\" \";y%;\" \";z$;\" \";A%;\" \";!&3000\n",
        "30 PROCm(1.5,2.5,\"q\",7):PRINT x;\" \";y%;\" \";z$;\" \";A%\n",
        "40 PRINT FNn(3):PRINT x;\" \";y%\n",
        "50 END\n",
        "60 DEF PROCl:LOCAL a%(1),b(2), c$(1),x ,y%,z$,A%,!&3000\n",
        "70 PRINT a%(1);\" \";b(2);\" \";c$(1);\"|\";x;\" \";y%;\" \";z$;\"|\";A%;\" \";!&3000\n",
        "80 a%(1)=6:b(2)=7:c$(1)=\"t\":x=8:y%=9:z$=\"w\":A%=10:!&3000=11:ENDPROC\n",
        "90 DEF PROCm(y%,x,z$,A%):PRINT x;\" \";y%;\" \";z$;\" \";A%:ENDPROC\n",
        "100 DEF FNn(y%):LOCAL x:x=y%*2:=x+y%\n",
    ));
    assert_eq!(err, None);
    assert_eq!(
        out,
        concat!(
            "         0 0 |0 0 |0 0\n",
            "         5 2.5 s 1 2 z 9 77\n",
            "       2.5 1 q 7\n",
            "         1 2 z 9\n",
            "         9\n",
            "         1 2\n",
        )
    );
}

#[test]
fn one_line_fns_return_and_fail_as_statements_do() {
    // `DEF FNf(x)=expr` is run without the statement loop: errors in it still reach the ON ERROR
    // LOCAL of an outer PROC or FN, and `=` still ends its statement.
    let (out, err) = run(concat!(
        "10 PROCt(0):PROCt(2)\n",
        "20 PRINT FNouter(0);\" \";FNouter(4)\n",
        "30 PRINT FNsp(3);FNcolon(2)\n",
        "40 FOR i%=1 TO 3:PRINT FNfact(i%*3);:NEXT:PRINT\n",
        "50 PRINT FNdiv(0)\n",
        "60 END\n",
        "100 DEF PROCt(n):ON ERROR LOCAL PRINT \"caught \";ERR;\" in PROCt\":ENDPROC\n",
        "110 PRINT FNdiv(n):ENDPROC\n",
        "120 DEF FNdiv(x)=1/x\n",
        "130 DEF FNouter(y):ON ERROR LOCAL =-ERR\n",
        "140 =FNdiv(y)*2\n",
        "150 DEF FNsp(a)   =  a*10\n",
        "160 DEF FNcolon(a)=a+1:PRINT \"never\"\n",
        "170 DEF FNfact(n)=FNfactr(n,1)\n",
        "180 DEF FNfactr(n,a)=FNfactr2(n,a)\n",
        "190 DEF FNfactr2(n,a):IF n<2 THEN =a ELSE =FNfactr(n-1,a*n)\n",
    ));
    assert_eq!(
        out,
        "caught 18 in PROCt\n       0.5\n       -18 0.5\n        303\n         6       720    362880\n"
    );
    assert_eq!(err.as_deref(), Some("Division by zero at line 120"));
}
