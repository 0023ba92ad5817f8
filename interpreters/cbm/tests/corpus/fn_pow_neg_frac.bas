10 print (-2)^.5
