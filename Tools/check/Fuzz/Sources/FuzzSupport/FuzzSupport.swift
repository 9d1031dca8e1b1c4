import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs libFuzzer on `body` with the process's arguments.
///
/// SwiftPM renames an executable's `main`, so libFuzzer's own `main` never
/// runs; its driver is looked up with `dlsym` instead (the binary is linked
/// with `--export-dynamic-symbol=LLVMFuzzerRunDriver`, see Tools/check/fuzz.sh).
public func runFuzzer(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
  typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  typealias Driver =
    @convention(c) (
      UnsafeMutablePointer<Int32>,
      UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
      Callback
    ) -> Int32
  // RTLD_DEFAULT (a null handle on glibc): the executable and its libraries.
  guard let symbol = dlsym(nil, "LLVMFuzzerRunDriver") else {
    FileHandle.standardError.write(Data("not built for fuzzing: run Tools/check/fuzz.sh\n".utf8))
    exit(2)
  }
  FuzzTarget.body = body
  let driver = unsafeBitCast(symbol, to: Driver.self)
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  let code = driver(&argc, &argv) { data, size in
    FuzzTarget.body?(UnsafeRawBufferPointer(start: data, count: size))
    return 0
  }
  exit(code)
}

/// The body a `@convention(c)` callback cannot capture.
enum FuzzTarget {
  nonisolated(unsafe) static var body: ((UnsafeRawBufferPointer) -> Void)?
}
