-- A toy rule family for keel's tests, modelled on Rule 27 "Naval Rules
-- Introduction" of 001_dc9ef6cc32bfaa07.txt (the real families come later).
-- It is small on purpose: enough rules to show events, actions, vetoes,
-- queries, values and a table, and for the campaign's house rules to change.
return family {
  name = "toy27",
  rulebook = "Rule 27 — Naval Rules Introduction (toy, after 001_dc9ef6cc32bfaa07.txt)",
  depends = {},
  files = { "ships.lua", "damage.lua", "activities.lua", "other_chapters.lua" },
  tables = { "bombing.tbl" },
  events = { "transfer_east" },
}
