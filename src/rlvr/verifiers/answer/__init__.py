"""Answer reading, one file per step a completion goes through: section, document, locate, context, values, compare."""
