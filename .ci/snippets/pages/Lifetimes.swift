// For Lifetimes.md: a server's widget module, whose components the page leaves out.
import SnippetPrelude

protocol WidgetModuleType {}
