10 def fnp(p)=p+pf%(p and 3):dim pf%(3):pf%(1)=7:print fnp(1);fnp(5)
