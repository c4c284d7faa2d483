import Testing

/// The suites' own helpers keep their promises: a watchdog that runs out fails the test that
/// set it, at the line that set it, and a gate says whether it opened.
@Suite struct HelperTests {
  @Test func aWatchdogThatRunsOutRecordsAnIssueAtItsCaller() async {
    let line = #line + 2
    await withKnownIssue {
      await eventually(timeout: 0.01) { false }
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["the condition still did not hold after 0.01 s"]
        && issue.sourceLocation?.line == line
    }
  }

  @Test func aWatchdogWhoseConditionHoldsRecordsNothing() async {
    var checks = 0
    await eventually {
      checks += 1
      return checks == 3
    }
    #expect(checks == 3)
  }

  @Test(arguments: [true, false])
  func aGateSaysWhetherItOpened(opens: Bool) {
    #expect(holdUntil(atMost: 0.01) { opens } == opens)
  }
}
