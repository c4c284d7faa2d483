/// What the user asked the app to do.
enum Command: Equatable {
  case list
  case show(id: String)
  case add(name: String)
  case graph
  case verify
  case help
}
