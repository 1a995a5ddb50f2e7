
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
    DISPATCH = 24, KUEUE = 25, ACCESS = 26, LBRACE = 27, RBRACE = 28, LBRACK = 29, 
    RBRACK = 30, LPAREN = 31, RPAREN = 32, COMMA = 33, SEP = 34, DOT = 35, 
    COLON = 36, QUESTION = 37, EQ = 38, NE = 39, LE = 40, GE = 41, LT = 42, 
    GT = 43, ASSIGN = 44, PLUS = 45, MINUS = 46, STAR = 47, SLASH = 48, 
    PERCENT = 49, AND = 50, OR = 51, NOT = 52, DURATION = 53, NUMBER = 54, 
    BAD_NUMBER = 55, IDENT = 56, STRING = 57, UNTERMINATED_STRING = 58, 
    LINE_COMMENT = 59, BLOCK_COMMENT = 60, UNTERMINATED_COMMENT = 61, WS = 62, 
    STRAY = 63
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
