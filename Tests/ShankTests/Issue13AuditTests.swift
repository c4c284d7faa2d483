import Dispatch
import Foundation
import Shank
import Testing

/// A third adversarial review of issue 13's eight promises, on the paths the earlier reviews
/// left out: each test tries to break one promise a way no other test does.
@Suite struct Issue13AuditTests {
  // MARK: 3. verify() gives the answer resolution would

  /// Overriding a cached module keeps its scope resettable at resolution; `verify()` must agree
  /// and not report, as a stop, a reset that would work.
  @Test func verifyAcceptsAResetOfACachedScopeWhoseModuleWasReplaced() throws {
    let dependencies = Dependencies {
      Module(scope: .cached("session")) { ServiceImpl() as Service }
      Module { MockService() as Service }  // a test's override of the cached module
      Module { () -> Router in
        Dependencies.current.reset(.cached("session"))  // a log-out screen
        return Router(service: Dependencies.resolve())
      }
    }
    // Resolution: the reset matches the replaced module's scope, and nothing stops.
    #expect(try dependencies.resolveOrThrow(Router.self).service is MockService)
    #expect(throws: Never.self) { try dependencies.verify() }
    #expect(dependencies.graph().nodes.count == 2)
  }

  // MARK: 7. Diagnostics at scale

  /// A cached scope whose name has a newline or a quote is written as a string literal in
  /// every message, as a registered name is.
  @Test func aScopeNameIsWrittenAsAStringLiteral() {
    #expect(Scope.cached("a\"b\nc").description == #".cached("a\"b\nc")"#)
  }

  @Test func aResetThatMatchesNoScopeKeepsItsMessageOnOneLine() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let dependencies = Dependencies {
        Module(scope: .cached("log\nout")) { ServiceImpl() as Service }
      }
      dependencies.reset(.cached("sign\nout"))
    }
    let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      stderr.contains(
        #"Shank: reset(.cached("sign\nout")) at ShankTests/Issue13AuditTests.swift:"#),
      "\(stderr)")
    #expect(stderr.contains(#"cached scopes registered: .cached("log\nout")"#), "\(stderr)")
  }
}
