// For Lifetimes.md: a server's widget module, whose components the page leaves out.
import Shank
import SnippetPrelude

protocol WidgetModuleType {}

// Two sessions whose handlers close each other.
let sessionA = Dependencies {}
let sessionB = Dependencies {}
