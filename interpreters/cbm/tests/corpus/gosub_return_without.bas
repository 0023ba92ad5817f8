10 return
