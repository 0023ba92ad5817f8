10 rem type mismatch
20 a$="12"
30 print a$+"3"
40 print a$+3
