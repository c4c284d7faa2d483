/// What the server is told at launch: where to listen and where the database is.
protocol AppArguments {
  /// The address to listen on.
  var hostname: String { get }
  /// The port to listen on; 0 picks a free one.
  var port: Int { get }
  /// Where the SQLite database lives.
  var databaseLocation: DatabaseLocation { get }
}
