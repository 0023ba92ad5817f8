10 dim s$(3):s$(0)="zero":s$(3)="three":print s$(0);s$(1);s$(3);len(s$(2))
