import Foundation

// The whole app lives in WidgetCLI, where tests can reach it; this file only hands it the process.
exit(await WidgetCLI(console: StandardConsole()).run(Array(CommandLine.arguments.dropFirst())))
