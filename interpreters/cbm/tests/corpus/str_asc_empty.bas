10 print asc("")
