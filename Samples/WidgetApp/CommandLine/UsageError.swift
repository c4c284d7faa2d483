/// A command line the app cannot run, with a one-line message saying what is wrong.
struct UsageError: Error, Equatable {
  let message: String
}
