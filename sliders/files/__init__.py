"""Files of pieces and tables: layout files (JSON or TOML) read into layouts, and scene files
(a layout, a face and the pawns on the table). Every reader checks what it reads."""
