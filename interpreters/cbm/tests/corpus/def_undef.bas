10 print fnz(1)
