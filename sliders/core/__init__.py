"""The vocabulary every layer shares, and its helpers: errors a user can cause, records
written to files, what a shot leaves behind (statuses, events, results, the shot itself),
checks of what comes in, and safe file reading and writing. Imports nothing of sliders."""
