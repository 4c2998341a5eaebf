"""Provider adapters. Each real provider sits behind an optional extra; ``scripted`` needs none."""
