import ScanModel
import Testing

/// `--lang eng+deu` is parsed once into language codes, which every
/// format reads; the page stores them joined as before.
@Suite("Language codes")
struct LanguageCodeTests {
  @Test func aListIsParsedOnceAndJoinedBackAsStored() throws {
    let codes = try #require(LanguageCode.list(parsing: "eng+deu+chi_sim"))
    #expect(codes == ["eng", "deu", "chi_sim"])
    #expect(LanguageCode.joined(codes) == "eng+deu+chi_sim")
    for text in ["", "eng+", "+deu", "eng++deu"] {
      #expect(LanguageCode.list(parsing: text) == nil, "\(text)")
    }
  }

  @Test func aStoredLanguageIsReadBackPassingOverEmptyParts() {
    #expect(LanguageCode.codes(in: "deu+eng") == ["deu", "eng"])
    #expect(LanguageCode.codes(in: "+eng++deu+") == ["eng", "deu"])
    #expect(LanguageCode.codes(in: "") == [])
    let page = Page(image: nil, width: 10, height: 10, language: "deu+eng", blocks: [])
    #expect(page.languages == ["deu", "eng"])
    #expect(Page(image: nil, width: 10, height: 10, blocks: []).languages == [])
  }

  @Test func eachFormatsNameComesFromTheCode() {
    #expect(LanguageCode("deu").bcp47Tag == "de")
    #expect(LanguageCode(" chi_sim ").bcp47Tag == "zh-Hans")
    #expect(LanguageCode("osd").bcp47Tag == nil)
    #expect(LanguageCode("deu").xsdLanguage == "deu")
    #expect(LanguageCode("chi_sim").xsdLanguage == nil)
    #expect(LanguageCode("deu").englishName == "German")
    #expect(LanguageCode("kor").englishName == nil)
    #expect(LanguageCode(englishName: "German") == "deu")
    #expect(LanguageCode(englishName: "Korean") == nil)
  }
}
