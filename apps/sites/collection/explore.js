// Whether the page goes on below the window (a list that loads more rows as it is
// scrolled may have more to show). Read-only.
() => window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 2
