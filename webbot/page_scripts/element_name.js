// An element's name as a reader would give it: tag#id.class.class.
// uses: helpers
({named}, e) => named(e)
