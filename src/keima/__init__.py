"""keima: Go under the French Go Federation rules."""
