import Foundation
import ScanCLI

let arguments = Array(CommandLine.arguments.dropFirst())
StandardStreams.silenceLibraries(verbose: arguments.contains("--verbose"))
exit(ScanText.main(arguments))
