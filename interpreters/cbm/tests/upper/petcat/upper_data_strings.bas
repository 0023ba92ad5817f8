10 rem quoted data with commas
20 for i=1 to 3:read a$:print a$:next
30 data "smith, john","jones, mary",plain
