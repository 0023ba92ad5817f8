10 dim a(2),b$(3),c%(4):print a(2);b$(3);c%(4);fre(0)
