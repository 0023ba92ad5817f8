10 print val("1e40")
