
// Generated from Mkq.g4 by ANTLR 4.7.2

#pragma once


#include "antlr4-runtime.h"


namespace mkq::grammar {


class  MkqLexer : public antlr4::Lexer {
public:
  enum {
    IMPORT = 1, AS = 2, LET = 3, TEMPLATE = 4, USE = 5, FOR = 6, IN = 7, 
    IF = 8, ELSE = 9, ASSERT = 10, TRUE = 11, FALSE = 12, NULL_LIT = 13, 
    ALL = 14, MANAGER = 15, WORKER = 16, FLAVOR = 17, TOPOLOGY = 18, COHORT = 19, 
    CLUSTERQUEUE = 20, LOCALQUEUE = 21, NAMESPACE = 22, PRIORITYCLASS = 23, 
    DISPATCH = 24, KUEUE = 25, ACCESS = 26, INTEGRATION = 27, LBRACE = 28, 
    RBRACE = 29, LBRACK = 30, RBRACK = 31, LPAREN = 32, RPAREN = 33, COMMA = 34, 
    SEP = 35, DOT = 36, COLON = 37, QUESTION = 38, EQ = 39, NE = 40, LE = 41, 
    GE = 42, LT = 43, GT = 44, ASSIGN = 45, PLUS = 46, MINUS = 47, STAR = 48, 
    SLASH = 49, PERCENT = 50, AND = 51, OR = 52, NOT = 53, DURATION = 54, 
    NUMBER = 55, BAD_NUMBER = 56, IDENT = 57, STRING = 58, UNTERMINATED_STRING = 59, 
    LINE_COMMENT = 60, BLOCK_COMMENT = 61, UNTERMINATED_COMMENT = 62, WS = 63, 
    STRAY = 64
  };

  MkqLexer(antlr4::CharStream *input);
  ~MkqLexer();

  virtual std::string getGrammarFileName() const override;
  virtual const std::vector<std::string>& getRuleNames() const override;

  virtual const std::vector<std::string>& getChannelNames() const override;
  virtual const std::vector<std::string>& getModeNames() const override;
  virtual const std::vector<std::string>& getTokenNames() const override; // deprecated, use vocabulary instead
  virtual antlr4::dfa::Vocabulary& getVocabulary() const override;

  virtual const std::vector<uint16_t> getSerializedATN() const override;
  virtual const antlr4::atn::ATN& getATN() const override;

private:
  static std::vector<antlr4::dfa::DFA> _decisionToDFA;
  static antlr4::atn::PredictionContextCache _sharedContextCache;
  static std::vector<std::string> _ruleNames;
  static std::vector<std::string> _tokenNames;
  static std::vector<std::string> _channelNames;
  static std::vector<std::string> _modeNames;

  static std::vector<std::string> _literalNames;
  static std::vector<std::string> _symbolicNames;
  static antlr4::dfa::Vocabulary _vocabulary;
  static antlr4::atn::ATN _atn;
  static std::vector<uint16_t> _serializedATN;


  // Individual action functions triggered by action() above.

  // Individual semantic predicate functions triggered by sempred() above.

  struct Initializer {
    Initializer();
  };
  static Initializer _init;
};

}  // namespace mkq::grammar
