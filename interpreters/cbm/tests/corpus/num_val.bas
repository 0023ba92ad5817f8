10 print val("12");val(" 12 3");val("abc");val("1e3")
20 print val("-.5x");val("");val("+7");val("1e99")
