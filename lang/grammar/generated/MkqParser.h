
// Generated from Mkq.g4 by ANTLR 4.7.2

#pragma once


#include "antlr4-runtime.h"


namespace mkq::grammar {


class  MkqParser : public antlr4::Parser {
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

  enum {
    RuleFile = 0, RuleStmt = 1, RuleImportStmt = 2, RuleLetStmt = 3, RuleTemplateStmt = 4, 
    RuleParams = 5, RuleParam = 6, RuleForStmt = 7, RuleIfStmt = 8, RuleAssertStmt = 9, 
    RuleUseStmt = 10, RuleAttribute = 11, RuleBlock = 12, RuleBody = 13, 
    RuleBlockKind = 14, RuleQualifiedName = 15, RuleArgs = 16, RuleArg = 17, 
    RuleExpr = 18, RulePrimary = 19, RuleComprehensionTail = 20, RuleMapEntry = 21, 
    RuleStringLit = 22, RuleIdent = 23
  };

  MkqParser(antlr4::TokenStream *input);
  ~MkqParser();

  virtual std::string getGrammarFileName() const override;
  virtual const antlr4::atn::ATN& getATN() const override { return _atn; };
  virtual const std::vector<std::string>& getTokenNames() const override { return _tokenNames; }; // deprecated: use vocabulary instead.
  virtual const std::vector<std::string>& getRuleNames() const override;
  virtual antlr4::dfa::Vocabulary& getVocabulary() const override;


  class FileContext;
  class StmtContext;
  class ImportStmtContext;
  class LetStmtContext;
  class TemplateStmtContext;
  class ParamsContext;
  class ParamContext;
  class ForStmtContext;
  class IfStmtContext;
  class AssertStmtContext;
  class UseStmtContext;
  class AttributeContext;
  class BlockContext;
  class BodyContext;
  class BlockKindContext;
  class QualifiedNameContext;
  class ArgsContext;
  class ArgContext;
  class ExprContext;
  class PrimaryContext;
  class ComprehensionTailContext;
  class MapEntryContext;
  class StringLitContext;
  class IdentContext; 

  class  FileContext : public antlr4::ParserRuleContext {
  public:
    FileContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *EOF();
    std::vector<antlr4::tree::TerminalNode *> COMMA();
    antlr4::tree::TerminalNode* COMMA(size_t i);
    std::vector<StmtContext *> stmt();
    StmtContext* stmt(size_t i);

   
  };

  FileContext* file();

  class  StmtContext : public antlr4::ParserRuleContext {
  public:
    StmtContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    ImportStmtContext *importStmt();
    LetStmtContext *letStmt();
    TemplateStmtContext *templateStmt();
    ForStmtContext *forStmt();
    IfStmtContext *ifStmt();
    UseStmtContext *useStmt();
    AttributeContext *attribute();
    BlockContext *block();
    antlr4::tree::TerminalNode *SEP();
    std::vector<antlr4::tree::TerminalNode *> COMMA();
    antlr4::tree::TerminalNode* COMMA(size_t i);
    AssertStmtContext *assertStmt();

   
  };

  StmtContext* stmt();

  class  ImportStmtContext : public antlr4::ParserRuleContext {
  public:
    ImportStmtContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *IMPORT();
    StringLitContext *stringLit();
    antlr4::tree::TerminalNode *AS();
    IdentContext *ident();

   
  };

  ImportStmtContext* importStmt();

  class  LetStmtContext : public antlr4::ParserRuleContext {
  public:
    LetStmtContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *LET();
    IdentContext *ident();
    antlr4::tree::TerminalNode *ASSIGN();
    ExprContext *expr();

   
  };

  LetStmtContext* letStmt();

  class  TemplateStmtContext : public antlr4::ParserRuleContext {
  public:
    TemplateStmtContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *TEMPLATE();
    IdentContext *ident();
    antlr4::tree::TerminalNode *LPAREN();
    antlr4::tree::TerminalNode *RPAREN();
    BodyContext *body();
    ParamsContext *params();

   
  };

  TemplateStmtContext* templateStmt();

  class  ParamsContext : public antlr4::ParserRuleContext {
  public:
    ParamsContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    std::vector<ParamContext *> param();
    ParamContext* param(size_t i);
    std::vector<antlr4::tree::TerminalNode *> COMMA();
    antlr4::tree::TerminalNode* COMMA(size_t i);

   
  };

  ParamsContext* params();

  class  ParamContext : public antlr4::ParserRuleContext {
  public:
    ParamContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    IdentContext *ident();
    antlr4::tree::TerminalNode *ASSIGN();
    ExprContext *expr();

   
  };

  ParamContext* param();

  class  ForStmtContext : public antlr4::ParserRuleContext {
  public:
    ForStmtContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *FOR();
    std::vector<IdentContext *> ident();
    IdentContext* ident(size_t i);
    antlr4::tree::TerminalNode *IN();
    ExprContext *expr();
    BodyContext *body();
    antlr4::tree::TerminalNode *COMMA();

   
  };

  ForStmtContext* forStmt();

  class  IfStmtContext : public antlr4::ParserRuleContext {
  public:
    IfStmtContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *IF();
    ExprContext *expr();
    std::vector<BodyContext *> body();
    BodyContext* body(size_t i);
    antlr4::tree::TerminalNode *ELSE();
    IfStmtContext *ifStmt();

   
  };

  IfStmtContext* ifStmt();

  class  AssertStmtContext : public antlr4::ParserRuleContext {
  public:
    AssertStmtContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *ASSERT();
    std::vector<ExprContext *> expr();
    ExprContext* expr(size_t i);
    std::vector<antlr4::tree::TerminalNode *> COMMA();
    antlr4::tree::TerminalNode* COMMA(size_t i);

   
  };

  AssertStmtContext* assertStmt();

  class  UseStmtContext : public antlr4::ParserRuleContext {
  public:
    UseStmtContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *USE();
    QualifiedNameContext *qualifiedName();
    antlr4::tree::TerminalNode *LPAREN();
    antlr4::tree::TerminalNode *RPAREN();
    ArgsContext *args();

   
  };

  UseStmtContext* useStmt();

  class  AttributeContext : public antlr4::ParserRuleContext {
  public:
    AttributeContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *ASSIGN();
    ExprContext *expr();
    IdentContext *ident();
    antlr4::tree::TerminalNode *STRING();

   
  };

  AttributeContext* attribute();

  class  BlockContext : public antlr4::ParserRuleContext {
  public:
    BlockContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    BlockKindContext *blockKind();
    BodyContext *body();
    std::vector<StringLitContext *> stringLit();
    StringLitContext* stringLit(size_t i);
    antlr4::tree::TerminalNode *IN();

   
  };

  BlockContext* block();

  class  BodyContext : public antlr4::ParserRuleContext {
  public:
    BodyContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *LBRACE();
    antlr4::tree::TerminalNode *RBRACE();
    std::vector<antlr4::tree::TerminalNode *> COMMA();
    antlr4::tree::TerminalNode* COMMA(size_t i);
    std::vector<StmtContext *> stmt();
    StmtContext* stmt(size_t i);

   
  };

  BodyContext* body();

  class  BlockKindContext : public antlr4::ParserRuleContext {
  public:
    BlockKindContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *MANAGER();
    antlr4::tree::TerminalNode *WORKER();
    antlr4::tree::TerminalNode *FLAVOR();
    antlr4::tree::TerminalNode *TOPOLOGY();
    antlr4::tree::TerminalNode *COHORT();
    antlr4::tree::TerminalNode *CLUSTERQUEUE();
    antlr4::tree::TerminalNode *LOCALQUEUE();
    antlr4::tree::TerminalNode *NAMESPACE();
    antlr4::tree::TerminalNode *PRIORITYCLASS();
    antlr4::tree::TerminalNode *DISPATCH();
    antlr4::tree::TerminalNode *KUEUE();
    antlr4::tree::TerminalNode *ACCESS();
    antlr4::tree::TerminalNode *INTEGRATION();
    antlr4::tree::TerminalNode *IDENT();

   
  };

  BlockKindContext* blockKind();

  class  QualifiedNameContext : public antlr4::ParserRuleContext {
  public:
    QualifiedNameContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    std::vector<IdentContext *> ident();
    IdentContext* ident(size_t i);
    std::vector<antlr4::tree::TerminalNode *> DOT();
    antlr4::tree::TerminalNode* DOT(size_t i);

   
  };

  QualifiedNameContext* qualifiedName();

  class  ArgsContext : public antlr4::ParserRuleContext {
  public:
    ArgsContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    std::vector<ArgContext *> arg();
    ArgContext* arg(size_t i);
    std::vector<antlr4::tree::TerminalNode *> COMMA();
    antlr4::tree::TerminalNode* COMMA(size_t i);

   
  };

  ArgsContext* args();

  class  ArgContext : public antlr4::ParserRuleContext {
  public:
    ArgContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    ExprContext *expr();
    IdentContext *ident();
    antlr4::tree::TerminalNode *ASSIGN();

   
  };

  ArgContext* arg();

  class  ExprContext : public antlr4::ParserRuleContext {
  public:
    ExprContext(antlr4::ParserRuleContext *parent, size_t invokingState);
   
    ExprContext() = default;
    void copyFrom(ExprContext *context);
    using antlr4::ParserRuleContext::copyFrom;

    virtual size_t getRuleIndex() const override;

   
  };

  class  IndexExprContext : public ExprContext {
  public:
    IndexExprContext(ExprContext *ctx);

    std::vector<ExprContext *> expr();
    ExprContext* expr(size_t i);
    antlr4::tree::TerminalNode *LBRACK();
    antlr4::tree::TerminalNode *RBRACK();
  };

  class  UnaryExprContext : public ExprContext {
  public:
    UnaryExprContext(ExprContext *ctx);

    antlr4::Token *op = nullptr;
    ExprContext *expr();
    antlr4::tree::TerminalNode *MINUS();
    antlr4::tree::TerminalNode *NOT();
  };

  class  PrimaryExprContext : public ExprContext {
  public:
    PrimaryExprContext(ExprContext *ctx);

    PrimaryContext *primary();
  };

  class  BinaryExprContext : public ExprContext {
  public:
    BinaryExprContext(ExprContext *ctx);

    antlr4::Token *op = nullptr;
    std::vector<ExprContext *> expr();
    ExprContext* expr(size_t i);
    antlr4::tree::TerminalNode *STAR();
    antlr4::tree::TerminalNode *SLASH();
    antlr4::tree::TerminalNode *PERCENT();
    antlr4::tree::TerminalNode *PLUS();
    antlr4::tree::TerminalNode *MINUS();
    antlr4::tree::TerminalNode *LT();
    antlr4::tree::TerminalNode *LE();
    antlr4::tree::TerminalNode *GT();
    antlr4::tree::TerminalNode *GE();
    antlr4::tree::TerminalNode *EQ();
    antlr4::tree::TerminalNode *NE();
    antlr4::tree::TerminalNode *IN();
    antlr4::tree::TerminalNode *AND();
    antlr4::tree::TerminalNode *OR();
  };

  class  CallExprContext : public ExprContext {
  public:
    CallExprContext(ExprContext *ctx);

    ExprContext *expr();
    antlr4::tree::TerminalNode *LPAREN();
    antlr4::tree::TerminalNode *RPAREN();
    ArgsContext *args();
  };

  class  FieldExprContext : public ExprContext {
  public:
    FieldExprContext(ExprContext *ctx);

    ExprContext *expr();
    antlr4::tree::TerminalNode *DOT();
    IdentContext *ident();
  };

  class  ConditionalExprContext : public ExprContext {
  public:
    ConditionalExprContext(ExprContext *ctx);

    std::vector<ExprContext *> expr();
    ExprContext* expr(size_t i);
    antlr4::tree::TerminalNode *QUESTION();
    antlr4::tree::TerminalNode *COLON();
  };

  ExprContext* expr();
  ExprContext* expr(int precedence);
  class  PrimaryContext : public antlr4::ParserRuleContext {
  public:
    PrimaryContext(antlr4::ParserRuleContext *parent, size_t invokingState);
   
    PrimaryContext() = default;
    void copyFrom(PrimaryContext *context);
    using antlr4::ParserRuleContext::copyFrom;

    virtual size_t getRuleIndex() const override;

   
  };

  class  StringExprContext : public PrimaryContext {
  public:
    StringExprContext(PrimaryContext *ctx);

    StringLitContext *stringLit();
  };

  class  MapLitContext : public PrimaryContext {
  public:
    MapLitContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *LBRACE();
    antlr4::tree::TerminalNode *RBRACE();
    std::vector<MapEntryContext *> mapEntry();
    MapEntryContext* mapEntry(size_t i);
    std::vector<antlr4::tree::TerminalNode *> COMMA();
    antlr4::tree::TerminalNode* COMMA(size_t i);
  };

  class  ListLitContext : public PrimaryContext {
  public:
    ListLitContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *LBRACK();
    antlr4::tree::TerminalNode *RBRACK();
    std::vector<ExprContext *> expr();
    ExprContext* expr(size_t i);
    ComprehensionTailContext *comprehensionTail();
    std::vector<antlr4::tree::TerminalNode *> COMMA();
    antlr4::tree::TerminalNode* COMMA(size_t i);
  };

  class  DurationLitContext : public PrimaryContext {
  public:
    DurationLitContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *DURATION();
  };

  class  TrueLitContext : public PrimaryContext {
  public:
    TrueLitContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *TRUE();
  };

  class  FalseLitContext : public PrimaryContext {
  public:
    FalseLitContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *FALSE();
  };

  class  NullLitContext : public PrimaryContext {
  public:
    NullLitContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *NULL_LIT();
  };

  class  NumberLitContext : public PrimaryContext {
  public:
    NumberLitContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *NUMBER();
  };

  class  NameRefContext : public PrimaryContext {
  public:
    NameRefContext(PrimaryContext *ctx);

    IdentContext *ident();
  };

  class  BadNumberLitContext : public PrimaryContext {
  public:
    BadNumberLitContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *BAD_NUMBER();
  };

  class  AllLitContext : public PrimaryContext {
  public:
    AllLitContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *ALL();
  };

  class  ParenExprContext : public PrimaryContext {
  public:
    ParenExprContext(PrimaryContext *ctx);

    antlr4::tree::TerminalNode *LPAREN();
    ExprContext *expr();
    antlr4::tree::TerminalNode *RPAREN();
  };

  PrimaryContext* primary();

  class  ComprehensionTailContext : public antlr4::ParserRuleContext {
  public:
    ComprehensionTailContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *FOR();
    std::vector<IdentContext *> ident();
    IdentContext* ident(size_t i);
    antlr4::tree::TerminalNode *IN();
    std::vector<ExprContext *> expr();
    ExprContext* expr(size_t i);
    antlr4::tree::TerminalNode *COMMA();
    antlr4::tree::TerminalNode *IF();

   
  };

  ComprehensionTailContext* comprehensionTail();

  class  MapEntryContext : public antlr4::ParserRuleContext {
  public:
    MapEntryContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *COLON();
    ExprContext *expr();
    StringLitContext *stringLit();
    IdentContext *ident();

   
  };

  MapEntryContext* mapEntry();

  class  StringLitContext : public antlr4::ParserRuleContext {
  public:
    StringLitContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *STRING();
    antlr4::tree::TerminalNode *UNTERMINATED_STRING();

   
  };

  StringLitContext* stringLit();

  class  IdentContext : public antlr4::ParserRuleContext {
  public:
    IdentContext(antlr4::ParserRuleContext *parent, size_t invokingState);
    virtual size_t getRuleIndex() const override;
    antlr4::tree::TerminalNode *IDENT();
    antlr4::tree::TerminalNode *MANAGER();
    antlr4::tree::TerminalNode *WORKER();
    antlr4::tree::TerminalNode *FLAVOR();
    antlr4::tree::TerminalNode *TOPOLOGY();
    antlr4::tree::TerminalNode *COHORT();
    antlr4::tree::TerminalNode *CLUSTERQUEUE();
    antlr4::tree::TerminalNode *LOCALQUEUE();
    antlr4::tree::TerminalNode *NAMESPACE();
    antlr4::tree::TerminalNode *PRIORITYCLASS();
    antlr4::tree::TerminalNode *DISPATCH();
    antlr4::tree::TerminalNode *KUEUE();
    antlr4::tree::TerminalNode *ACCESS();
    antlr4::tree::TerminalNode *INTEGRATION();

   
  };

  IdentContext* ident();


  virtual bool sempred(antlr4::RuleContext *_localctx, size_t ruleIndex, size_t predicateIndex) override;
  bool exprSempred(ExprContext *_localctx, size_t predicateIndex);

private:
  static std::vector<antlr4::dfa::DFA> _decisionToDFA;
  static antlr4::atn::PredictionContextCache _sharedContextCache;
  static std::vector<std::string> _ruleNames;
  static std::vector<std::string> _tokenNames;

  static std::vector<std::string> _literalNames;
  static std::vector<std::string> _symbolicNames;
  static antlr4::dfa::Vocabulary _vocabulary;
  static antlr4::atn::ATN _atn;
  static std::vector<uint16_t> _serializedATN;


  struct Initializer {
    Initializer();
  };
  static Initializer _init;
};

}  // namespace mkq::grammar
