// For DesigningModules.md: the module its blocks call `widgets`, of the protocol they declare.
import Shank
import SnippetPrelude

var widgets: WidgetModuleType { WidgetModule() }
