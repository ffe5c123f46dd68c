"""Adventure Tours (expedition card game): rules model, default deck, hint, max and puzzle solvers."""
