
// Generated from Mkq.g4 by ANTLR 4.7.2



#include "MkqParser.h"


using namespace antlrcpp;
using namespace mkq::grammar;
using namespace antlr4;

MkqParser::MkqParser(TokenStream *input) : Parser(input) {
  _interpreter = new atn::ParserATNSimulator(this, _atn, _decisionToDFA, _sharedContextCache);
}

MkqParser::~MkqParser() {
  delete _interpreter;
}

std::string MkqParser::getGrammarFileName() const {
  return "Mkq.g4";
}

const std::vector<std::string>& MkqParser::getRuleNames() const {
  return _ruleNames;
}

dfa::Vocabulary& MkqParser::getVocabulary() const {
  return _vocabulary;
}


//----------------- FileContext ------------------------------------------------------------------

MkqParser::FileContext::FileContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::FileContext::EOF() {
  return getToken(MkqParser::EOF, 0);
}

std::vector<MkqParser::StmtContext *> MkqParser::FileContext::stmt() {
  return getRuleContexts<MkqParser::StmtContext>();
}

MkqParser::StmtContext* MkqParser::FileContext::stmt(size_t i) {
  return getRuleContext<MkqParser::StmtContext>(i);
}


size_t MkqParser::FileContext::getRuleIndex() const {
  return MkqParser::RuleFile;
}


MkqParser::FileContext* MkqParser::file() {
  FileContext *_localctx = _tracker.createInstance<FileContext>(_ctx, getState());
  enterRule(_localctx, 0, MkqParser::RuleFile);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(51);
    _errHandler->sync(this);
    _la = _input->LA(1);
    while ((((_la & ~ 0x3fULL) == 0) &&
      ((1ULL << _la) & ((1ULL << MkqParser::IMPORT)
      | (1ULL << MkqParser::LET)
      | (1ULL << MkqParser::TEMPLATE)
      | (1ULL << MkqParser::USE)
      | (1ULL << MkqParser::FOR)
      | (1ULL << MkqParser::IF)
      | (1ULL << MkqParser::ASSERT)
      | (1ULL << MkqParser::MANAGER)
      | (1ULL << MkqParser::WORKER)
      | (1ULL << MkqParser::FLAVOR)
      | (1ULL << MkqParser::TOPOLOGY)
      | (1ULL << MkqParser::COHORT)
      | (1ULL << MkqParser::CLUSTERQUEUE)
      | (1ULL << MkqParser::LOCALQUEUE)
      | (1ULL << MkqParser::NAMESPACE)
      | (1ULL << MkqParser::PRIORITYCLASS)
      | (1ULL << MkqParser::DISPATCH)
      | (1ULL << MkqParser::KUEUE)
      | (1ULL << MkqParser::ACCESS)
      | (1ULL << MkqParser::INTEGRATION)
      | (1ULL << MkqParser::COMMA)
      | (1ULL << MkqParser::SEP)
      | (1ULL << MkqParser::IDENT)
      | (1ULL << MkqParser::STRING))) != 0)) {
      setState(48);
      stmt();
      setState(53);
      _errHandler->sync(this);
      _la = _input->LA(1);
    }
    setState(54);
    match(MkqParser::EOF);
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- StmtContext ------------------------------------------------------------------

MkqParser::StmtContext::StmtContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

MkqParser::ImportStmtContext* MkqParser::StmtContext::importStmt() {
  return getRuleContext<MkqParser::ImportStmtContext>(0);
}

MkqParser::LetStmtContext* MkqParser::StmtContext::letStmt() {
  return getRuleContext<MkqParser::LetStmtContext>(0);
}

MkqParser::TemplateStmtContext* MkqParser::StmtContext::templateStmt() {
  return getRuleContext<MkqParser::TemplateStmtContext>(0);
}

MkqParser::ForStmtContext* MkqParser::StmtContext::forStmt() {
  return getRuleContext<MkqParser::ForStmtContext>(0);
}

MkqParser::IfStmtContext* MkqParser::StmtContext::ifStmt() {
  return getRuleContext<MkqParser::IfStmtContext>(0);
}

MkqParser::AssertStmtContext* MkqParser::StmtContext::assertStmt() {
  return getRuleContext<MkqParser::AssertStmtContext>(0);
}

MkqParser::UseStmtContext* MkqParser::StmtContext::useStmt() {
  return getRuleContext<MkqParser::UseStmtContext>(0);
}

MkqParser::AttributeContext* MkqParser::StmtContext::attribute() {
  return getRuleContext<MkqParser::AttributeContext>(0);
}

MkqParser::BlockContext* MkqParser::StmtContext::block() {
  return getRuleContext<MkqParser::BlockContext>(0);
}

tree::TerminalNode* MkqParser::StmtContext::SEP() {
  return getToken(MkqParser::SEP, 0);
}

tree::TerminalNode* MkqParser::StmtContext::COMMA() {
  return getToken(MkqParser::COMMA, 0);
}


size_t MkqParser::StmtContext::getRuleIndex() const {
  return MkqParser::RuleStmt;
}


MkqParser::StmtContext* MkqParser::stmt() {
  StmtContext *_localctx = _tracker.createInstance<StmtContext>(_ctx, getState());
  enterRule(_localctx, 2, MkqParser::RuleStmt);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    setState(66);
    _errHandler->sync(this);
    switch (getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 1, _ctx)) {
    case 1: {
      enterOuterAlt(_localctx, 1);
      setState(56);
      importStmt();
      break;
    }

    case 2: {
      enterOuterAlt(_localctx, 2);
      setState(57);
      letStmt();
      break;
    }

    case 3: {
      enterOuterAlt(_localctx, 3);
      setState(58);
      templateStmt();
      break;
    }

    case 4: {
      enterOuterAlt(_localctx, 4);
      setState(59);
      forStmt();
      break;
    }

    case 5: {
      enterOuterAlt(_localctx, 5);
      setState(60);
      ifStmt();
      break;
    }

    case 6: {
      enterOuterAlt(_localctx, 6);
      setState(61);
      assertStmt();
      break;
    }

    case 7: {
      enterOuterAlt(_localctx, 7);
      setState(62);
      useStmt();
      break;
    }

    case 8: {
      enterOuterAlt(_localctx, 8);
      setState(63);
      attribute();
      break;
    }

    case 9: {
      enterOuterAlt(_localctx, 9);
      setState(64);
      block();
      break;
    }

    case 10: {
      enterOuterAlt(_localctx, 10);
      setState(65);
      _la = _input->LA(1);
      if (!(_la == MkqParser::COMMA

      || _la == MkqParser::SEP)) {
      _errHandler->recoverInline(this);
      }
      else {
        _errHandler->reportMatch(this);
        consume();
      }
      break;
    }

    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- ImportStmtContext ------------------------------------------------------------------

MkqParser::ImportStmtContext::ImportStmtContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::ImportStmtContext::IMPORT() {
  return getToken(MkqParser::IMPORT, 0);
}

MkqParser::StringLitContext* MkqParser::ImportStmtContext::stringLit() {
  return getRuleContext<MkqParser::StringLitContext>(0);
}

tree::TerminalNode* MkqParser::ImportStmtContext::AS() {
  return getToken(MkqParser::AS, 0);
}

MkqParser::IdentContext* MkqParser::ImportStmtContext::ident() {
  return getRuleContext<MkqParser::IdentContext>(0);
}


size_t MkqParser::ImportStmtContext::getRuleIndex() const {
  return MkqParser::RuleImportStmt;
}


MkqParser::ImportStmtContext* MkqParser::importStmt() {
  ImportStmtContext *_localctx = _tracker.createInstance<ImportStmtContext>(_ctx, getState());
  enterRule(_localctx, 4, MkqParser::RuleImportStmt);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(68);
    match(MkqParser::IMPORT);
    setState(69);
    stringLit();
    setState(72);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::AS) {
      setState(70);
      match(MkqParser::AS);
      setState(71);
      ident();
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- LetStmtContext ------------------------------------------------------------------

MkqParser::LetStmtContext::LetStmtContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::LetStmtContext::LET() {
  return getToken(MkqParser::LET, 0);
}

MkqParser::IdentContext* MkqParser::LetStmtContext::ident() {
  return getRuleContext<MkqParser::IdentContext>(0);
}

tree::TerminalNode* MkqParser::LetStmtContext::ASSIGN() {
  return getToken(MkqParser::ASSIGN, 0);
}

MkqParser::ExprContext* MkqParser::LetStmtContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}


size_t MkqParser::LetStmtContext::getRuleIndex() const {
  return MkqParser::RuleLetStmt;
}


MkqParser::LetStmtContext* MkqParser::letStmt() {
  LetStmtContext *_localctx = _tracker.createInstance<LetStmtContext>(_ctx, getState());
  enterRule(_localctx, 6, MkqParser::RuleLetStmt);

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(74);
    match(MkqParser::LET);
    setState(75);
    ident();
    setState(76);
    match(MkqParser::ASSIGN);
    setState(77);
    expr(0);
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- TemplateStmtContext ------------------------------------------------------------------

MkqParser::TemplateStmtContext::TemplateStmtContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::TemplateStmtContext::TEMPLATE() {
  return getToken(MkqParser::TEMPLATE, 0);
}

MkqParser::IdentContext* MkqParser::TemplateStmtContext::ident() {
  return getRuleContext<MkqParser::IdentContext>(0);
}

tree::TerminalNode* MkqParser::TemplateStmtContext::LPAREN() {
  return getToken(MkqParser::LPAREN, 0);
}

tree::TerminalNode* MkqParser::TemplateStmtContext::RPAREN() {
  return getToken(MkqParser::RPAREN, 0);
}

MkqParser::BodyContext* MkqParser::TemplateStmtContext::body() {
  return getRuleContext<MkqParser::BodyContext>(0);
}

MkqParser::ParamsContext* MkqParser::TemplateStmtContext::params() {
  return getRuleContext<MkqParser::ParamsContext>(0);
}


size_t MkqParser::TemplateStmtContext::getRuleIndex() const {
  return MkqParser::RuleTemplateStmt;
}


MkqParser::TemplateStmtContext* MkqParser::templateStmt() {
  TemplateStmtContext *_localctx = _tracker.createInstance<TemplateStmtContext>(_ctx, getState());
  enterRule(_localctx, 8, MkqParser::RuleTemplateStmt);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(79);
    match(MkqParser::TEMPLATE);
    setState(80);
    ident();
    setState(81);
    match(MkqParser::LPAREN);
    setState(83);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if ((((_la & ~ 0x3fULL) == 0) &&
      ((1ULL << _la) & ((1ULL << MkqParser::MANAGER)
      | (1ULL << MkqParser::WORKER)
      | (1ULL << MkqParser::FLAVOR)
      | (1ULL << MkqParser::TOPOLOGY)
      | (1ULL << MkqParser::COHORT)
      | (1ULL << MkqParser::CLUSTERQUEUE)
      | (1ULL << MkqParser::LOCALQUEUE)
      | (1ULL << MkqParser::NAMESPACE)
      | (1ULL << MkqParser::PRIORITYCLASS)
      | (1ULL << MkqParser::DISPATCH)
      | (1ULL << MkqParser::KUEUE)
      | (1ULL << MkqParser::ACCESS)
      | (1ULL << MkqParser::INTEGRATION)
      | (1ULL << MkqParser::IDENT))) != 0)) {
      setState(82);
      params();
    }
    setState(85);
    match(MkqParser::RPAREN);
    setState(86);
    body();
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- ParamsContext ------------------------------------------------------------------

MkqParser::ParamsContext::ParamsContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

std::vector<MkqParser::ParamContext *> MkqParser::ParamsContext::param() {
  return getRuleContexts<MkqParser::ParamContext>();
}

MkqParser::ParamContext* MkqParser::ParamsContext::param(size_t i) {
  return getRuleContext<MkqParser::ParamContext>(i);
}

std::vector<tree::TerminalNode *> MkqParser::ParamsContext::COMMA() {
  return getTokens(MkqParser::COMMA);
}

tree::TerminalNode* MkqParser::ParamsContext::COMMA(size_t i) {
  return getToken(MkqParser::COMMA, i);
}


size_t MkqParser::ParamsContext::getRuleIndex() const {
  return MkqParser::RuleParams;
}


MkqParser::ParamsContext* MkqParser::params() {
  ParamsContext *_localctx = _tracker.createInstance<ParamsContext>(_ctx, getState());
  enterRule(_localctx, 10, MkqParser::RuleParams);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    size_t alt;
    enterOuterAlt(_localctx, 1);
    setState(88);
    param();
    setState(93);
    _errHandler->sync(this);
    alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 4, _ctx);
    while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
      if (alt == 1) {
        setState(89);
        match(MkqParser::COMMA);
        setState(90);
        param(); 
      }
      setState(95);
      _errHandler->sync(this);
      alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 4, _ctx);
    }
    setState(97);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::COMMA) {
      setState(96);
      match(MkqParser::COMMA);
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- ParamContext ------------------------------------------------------------------

MkqParser::ParamContext::ParamContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

MkqParser::IdentContext* MkqParser::ParamContext::ident() {
  return getRuleContext<MkqParser::IdentContext>(0);
}

tree::TerminalNode* MkqParser::ParamContext::ASSIGN() {
  return getToken(MkqParser::ASSIGN, 0);
}

MkqParser::ExprContext* MkqParser::ParamContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}


size_t MkqParser::ParamContext::getRuleIndex() const {
  return MkqParser::RuleParam;
}


MkqParser::ParamContext* MkqParser::param() {
  ParamContext *_localctx = _tracker.createInstance<ParamContext>(_ctx, getState());
  enterRule(_localctx, 12, MkqParser::RuleParam);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(99);
    ident();
    setState(102);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::ASSIGN) {
      setState(100);
      match(MkqParser::ASSIGN);
      setState(101);
      expr(0);
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- ForStmtContext ------------------------------------------------------------------

MkqParser::ForStmtContext::ForStmtContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::ForStmtContext::FOR() {
  return getToken(MkqParser::FOR, 0);
}

std::vector<MkqParser::IdentContext *> MkqParser::ForStmtContext::ident() {
  return getRuleContexts<MkqParser::IdentContext>();
}

MkqParser::IdentContext* MkqParser::ForStmtContext::ident(size_t i) {
  return getRuleContext<MkqParser::IdentContext>(i);
}

tree::TerminalNode* MkqParser::ForStmtContext::IN() {
  return getToken(MkqParser::IN, 0);
}

MkqParser::ExprContext* MkqParser::ForStmtContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}

MkqParser::BodyContext* MkqParser::ForStmtContext::body() {
  return getRuleContext<MkqParser::BodyContext>(0);
}

tree::TerminalNode* MkqParser::ForStmtContext::COMMA() {
  return getToken(MkqParser::COMMA, 0);
}


size_t MkqParser::ForStmtContext::getRuleIndex() const {
  return MkqParser::RuleForStmt;
}


MkqParser::ForStmtContext* MkqParser::forStmt() {
  ForStmtContext *_localctx = _tracker.createInstance<ForStmtContext>(_ctx, getState());
  enterRule(_localctx, 14, MkqParser::RuleForStmt);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(104);
    match(MkqParser::FOR);
    setState(105);
    ident();
    setState(108);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::COMMA) {
      setState(106);
      match(MkqParser::COMMA);
      setState(107);
      ident();
    }
    setState(110);
    match(MkqParser::IN);
    setState(111);
    expr(0);
    setState(112);
    body();
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- IfStmtContext ------------------------------------------------------------------

MkqParser::IfStmtContext::IfStmtContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::IfStmtContext::IF() {
  return getToken(MkqParser::IF, 0);
}

MkqParser::ExprContext* MkqParser::IfStmtContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}

std::vector<MkqParser::BodyContext *> MkqParser::IfStmtContext::body() {
  return getRuleContexts<MkqParser::BodyContext>();
}

MkqParser::BodyContext* MkqParser::IfStmtContext::body(size_t i) {
  return getRuleContext<MkqParser::BodyContext>(i);
}

tree::TerminalNode* MkqParser::IfStmtContext::ELSE() {
  return getToken(MkqParser::ELSE, 0);
}

MkqParser::IfStmtContext* MkqParser::IfStmtContext::ifStmt() {
  return getRuleContext<MkqParser::IfStmtContext>(0);
}


size_t MkqParser::IfStmtContext::getRuleIndex() const {
  return MkqParser::RuleIfStmt;
}


MkqParser::IfStmtContext* MkqParser::ifStmt() {
  IfStmtContext *_localctx = _tracker.createInstance<IfStmtContext>(_ctx, getState());
  enterRule(_localctx, 16, MkqParser::RuleIfStmt);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(114);
    match(MkqParser::IF);
    setState(115);
    expr(0);
    setState(116);
    body();
    setState(122);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::ELSE) {
      setState(117);
      match(MkqParser::ELSE);
      setState(120);
      _errHandler->sync(this);
      switch (_input->LA(1)) {
        case MkqParser::IF: {
          setState(118);
          ifStmt();
          break;
        }

        case MkqParser::LBRACE: {
          setState(119);
          body();
          break;
        }

      default:
        throw NoViableAltException(this);
      }
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- AssertStmtContext ------------------------------------------------------------------

MkqParser::AssertStmtContext::AssertStmtContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::AssertStmtContext::ASSERT() {
  return getToken(MkqParser::ASSERT, 0);
}

std::vector<MkqParser::ExprContext *> MkqParser::AssertStmtContext::expr() {
  return getRuleContexts<MkqParser::ExprContext>();
}

MkqParser::ExprContext* MkqParser::AssertStmtContext::expr(size_t i) {
  return getRuleContext<MkqParser::ExprContext>(i);
}

tree::TerminalNode* MkqParser::AssertStmtContext::COMMA() {
  return getToken(MkqParser::COMMA, 0);
}


size_t MkqParser::AssertStmtContext::getRuleIndex() const {
  return MkqParser::RuleAssertStmt;
}


MkqParser::AssertStmtContext* MkqParser::assertStmt() {
  AssertStmtContext *_localctx = _tracker.createInstance<AssertStmtContext>(_ctx, getState());
  enterRule(_localctx, 18, MkqParser::RuleAssertStmt);

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(124);
    match(MkqParser::ASSERT);
    setState(125);
    expr(0);
    setState(128);
    _errHandler->sync(this);

    switch (getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 10, _ctx)) {
    case 1: {
      setState(126);
      match(MkqParser::COMMA);
      setState(127);
      expr(0);
      break;
    }

    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- UseStmtContext ------------------------------------------------------------------

MkqParser::UseStmtContext::UseStmtContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::UseStmtContext::USE() {
  return getToken(MkqParser::USE, 0);
}

MkqParser::QualifiedNameContext* MkqParser::UseStmtContext::qualifiedName() {
  return getRuleContext<MkqParser::QualifiedNameContext>(0);
}

tree::TerminalNode* MkqParser::UseStmtContext::LPAREN() {
  return getToken(MkqParser::LPAREN, 0);
}

tree::TerminalNode* MkqParser::UseStmtContext::RPAREN() {
  return getToken(MkqParser::RPAREN, 0);
}

MkqParser::ArgsContext* MkqParser::UseStmtContext::args() {
  return getRuleContext<MkqParser::ArgsContext>(0);
}


size_t MkqParser::UseStmtContext::getRuleIndex() const {
  return MkqParser::RuleUseStmt;
}


MkqParser::UseStmtContext* MkqParser::useStmt() {
  UseStmtContext *_localctx = _tracker.createInstance<UseStmtContext>(_ctx, getState());
  enterRule(_localctx, 20, MkqParser::RuleUseStmt);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(130);
    match(MkqParser::USE);
    setState(131);
    qualifiedName();
    setState(132);
    match(MkqParser::LPAREN);
    setState(134);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if ((((_la & ~ 0x3fULL) == 0) &&
      ((1ULL << _la) & ((1ULL << MkqParser::TRUE)
      | (1ULL << MkqParser::FALSE)
      | (1ULL << MkqParser::NULL_LIT)
      | (1ULL << MkqParser::ALL)
      | (1ULL << MkqParser::MANAGER)
      | (1ULL << MkqParser::WORKER)
      | (1ULL << MkqParser::FLAVOR)
      | (1ULL << MkqParser::TOPOLOGY)
      | (1ULL << MkqParser::COHORT)
      | (1ULL << MkqParser::CLUSTERQUEUE)
      | (1ULL << MkqParser::LOCALQUEUE)
      | (1ULL << MkqParser::NAMESPACE)
      | (1ULL << MkqParser::PRIORITYCLASS)
      | (1ULL << MkqParser::DISPATCH)
      | (1ULL << MkqParser::KUEUE)
      | (1ULL << MkqParser::ACCESS)
      | (1ULL << MkqParser::INTEGRATION)
      | (1ULL << MkqParser::LBRACE)
      | (1ULL << MkqParser::LBRACK)
      | (1ULL << MkqParser::LPAREN)
      | (1ULL << MkqParser::MINUS)
      | (1ULL << MkqParser::NOT)
      | (1ULL << MkqParser::DURATION)
      | (1ULL << MkqParser::NUMBER)
      | (1ULL << MkqParser::BAD_NUMBER)
      | (1ULL << MkqParser::IDENT)
      | (1ULL << MkqParser::STRING)
      | (1ULL << MkqParser::UNTERMINATED_STRING))) != 0)) {
      setState(133);
      args();
    }
    setState(136);
    match(MkqParser::RPAREN);
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- AttributeContext ------------------------------------------------------------------

MkqParser::AttributeContext::AttributeContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::AttributeContext::ASSIGN() {
  return getToken(MkqParser::ASSIGN, 0);
}

MkqParser::ExprContext* MkqParser::AttributeContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}

MkqParser::IdentContext* MkqParser::AttributeContext::ident() {
  return getRuleContext<MkqParser::IdentContext>(0);
}

tree::TerminalNode* MkqParser::AttributeContext::STRING() {
  return getToken(MkqParser::STRING, 0);
}


size_t MkqParser::AttributeContext::getRuleIndex() const {
  return MkqParser::RuleAttribute;
}


MkqParser::AttributeContext* MkqParser::attribute() {
  AttributeContext *_localctx = _tracker.createInstance<AttributeContext>(_ctx, getState());
  enterRule(_localctx, 22, MkqParser::RuleAttribute);

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(140);
    _errHandler->sync(this);
    switch (_input->LA(1)) {
      case MkqParser::MANAGER:
      case MkqParser::WORKER:
      case MkqParser::FLAVOR:
      case MkqParser::TOPOLOGY:
      case MkqParser::COHORT:
      case MkqParser::CLUSTERQUEUE:
      case MkqParser::LOCALQUEUE:
      case MkqParser::NAMESPACE:
      case MkqParser::PRIORITYCLASS:
      case MkqParser::DISPATCH:
      case MkqParser::KUEUE:
      case MkqParser::ACCESS:
      case MkqParser::INTEGRATION:
      case MkqParser::IDENT: {
        setState(138);
        ident();
        break;
      }

      case MkqParser::STRING: {
        setState(139);
        match(MkqParser::STRING);
        break;
      }

    default:
      throw NoViableAltException(this);
    }
    setState(142);
    match(MkqParser::ASSIGN);
    setState(143);
    expr(0);
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- BlockContext ------------------------------------------------------------------

MkqParser::BlockContext::BlockContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

MkqParser::BlockKindContext* MkqParser::BlockContext::blockKind() {
  return getRuleContext<MkqParser::BlockKindContext>(0);
}

MkqParser::BodyContext* MkqParser::BlockContext::body() {
  return getRuleContext<MkqParser::BodyContext>(0);
}

std::vector<MkqParser::StringLitContext *> MkqParser::BlockContext::stringLit() {
  return getRuleContexts<MkqParser::StringLitContext>();
}

MkqParser::StringLitContext* MkqParser::BlockContext::stringLit(size_t i) {
  return getRuleContext<MkqParser::StringLitContext>(i);
}

tree::TerminalNode* MkqParser::BlockContext::IN() {
  return getToken(MkqParser::IN, 0);
}


size_t MkqParser::BlockContext::getRuleIndex() const {
  return MkqParser::RuleBlock;
}


MkqParser::BlockContext* MkqParser::block() {
  BlockContext *_localctx = _tracker.createInstance<BlockContext>(_ctx, getState());
  enterRule(_localctx, 24, MkqParser::RuleBlock);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(145);
    blockKind();
    setState(149);
    _errHandler->sync(this);
    _la = _input->LA(1);
    while (_la == MkqParser::STRING

    || _la == MkqParser::UNTERMINATED_STRING) {
      setState(146);
      stringLit();
      setState(151);
      _errHandler->sync(this);
      _la = _input->LA(1);
    }
    setState(154);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::IN) {
      setState(152);
      match(MkqParser::IN);
      setState(153);
      stringLit();
    }
    setState(156);
    body();
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- BodyContext ------------------------------------------------------------------

MkqParser::BodyContext::BodyContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::BodyContext::LBRACE() {
  return getToken(MkqParser::LBRACE, 0);
}

tree::TerminalNode* MkqParser::BodyContext::RBRACE() {
  return getToken(MkqParser::RBRACE, 0);
}

std::vector<MkqParser::StmtContext *> MkqParser::BodyContext::stmt() {
  return getRuleContexts<MkqParser::StmtContext>();
}

MkqParser::StmtContext* MkqParser::BodyContext::stmt(size_t i) {
  return getRuleContext<MkqParser::StmtContext>(i);
}


size_t MkqParser::BodyContext::getRuleIndex() const {
  return MkqParser::RuleBody;
}


MkqParser::BodyContext* MkqParser::body() {
  BodyContext *_localctx = _tracker.createInstance<BodyContext>(_ctx, getState());
  enterRule(_localctx, 26, MkqParser::RuleBody);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(158);
    match(MkqParser::LBRACE);
    setState(162);
    _errHandler->sync(this);
    _la = _input->LA(1);
    while ((((_la & ~ 0x3fULL) == 0) &&
      ((1ULL << _la) & ((1ULL << MkqParser::IMPORT)
      | (1ULL << MkqParser::LET)
      | (1ULL << MkqParser::TEMPLATE)
      | (1ULL << MkqParser::USE)
      | (1ULL << MkqParser::FOR)
      | (1ULL << MkqParser::IF)
      | (1ULL << MkqParser::ASSERT)
      | (1ULL << MkqParser::MANAGER)
      | (1ULL << MkqParser::WORKER)
      | (1ULL << MkqParser::FLAVOR)
      | (1ULL << MkqParser::TOPOLOGY)
      | (1ULL << MkqParser::COHORT)
      | (1ULL << MkqParser::CLUSTERQUEUE)
      | (1ULL << MkqParser::LOCALQUEUE)
      | (1ULL << MkqParser::NAMESPACE)
      | (1ULL << MkqParser::PRIORITYCLASS)
      | (1ULL << MkqParser::DISPATCH)
      | (1ULL << MkqParser::KUEUE)
      | (1ULL << MkqParser::ACCESS)
      | (1ULL << MkqParser::INTEGRATION)
      | (1ULL << MkqParser::COMMA)
      | (1ULL << MkqParser::SEP)
      | (1ULL << MkqParser::IDENT)
      | (1ULL << MkqParser::STRING))) != 0)) {
      setState(159);
      stmt();
      setState(164);
      _errHandler->sync(this);
      _la = _input->LA(1);
    }
    setState(165);
    match(MkqParser::RBRACE);
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- BlockKindContext ------------------------------------------------------------------

MkqParser::BlockKindContext::BlockKindContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::BlockKindContext::MANAGER() {
  return getToken(MkqParser::MANAGER, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::WORKER() {
  return getToken(MkqParser::WORKER, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::FLAVOR() {
  return getToken(MkqParser::FLAVOR, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::TOPOLOGY() {
  return getToken(MkqParser::TOPOLOGY, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::COHORT() {
  return getToken(MkqParser::COHORT, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::CLUSTERQUEUE() {
  return getToken(MkqParser::CLUSTERQUEUE, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::LOCALQUEUE() {
  return getToken(MkqParser::LOCALQUEUE, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::NAMESPACE() {
  return getToken(MkqParser::NAMESPACE, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::PRIORITYCLASS() {
  return getToken(MkqParser::PRIORITYCLASS, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::DISPATCH() {
  return getToken(MkqParser::DISPATCH, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::KUEUE() {
  return getToken(MkqParser::KUEUE, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::ACCESS() {
  return getToken(MkqParser::ACCESS, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::INTEGRATION() {
  return getToken(MkqParser::INTEGRATION, 0);
}

tree::TerminalNode* MkqParser::BlockKindContext::IDENT() {
  return getToken(MkqParser::IDENT, 0);
}


size_t MkqParser::BlockKindContext::getRuleIndex() const {
  return MkqParser::RuleBlockKind;
}


MkqParser::BlockKindContext* MkqParser::blockKind() {
  BlockKindContext *_localctx = _tracker.createInstance<BlockKindContext>(_ctx, getState());
  enterRule(_localctx, 28, MkqParser::RuleBlockKind);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(167);
    _la = _input->LA(1);
    if (!((((_la & ~ 0x3fULL) == 0) &&
      ((1ULL << _la) & ((1ULL << MkqParser::MANAGER)
      | (1ULL << MkqParser::WORKER)
      | (1ULL << MkqParser::FLAVOR)
      | (1ULL << MkqParser::TOPOLOGY)
      | (1ULL << MkqParser::COHORT)
      | (1ULL << MkqParser::CLUSTERQUEUE)
      | (1ULL << MkqParser::LOCALQUEUE)
      | (1ULL << MkqParser::NAMESPACE)
      | (1ULL << MkqParser::PRIORITYCLASS)
      | (1ULL << MkqParser::DISPATCH)
      | (1ULL << MkqParser::KUEUE)
      | (1ULL << MkqParser::ACCESS)
      | (1ULL << MkqParser::INTEGRATION)
      | (1ULL << MkqParser::IDENT))) != 0))) {
    _errHandler->recoverInline(this);
    }
    else {
      _errHandler->reportMatch(this);
      consume();
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- QualifiedNameContext ------------------------------------------------------------------

MkqParser::QualifiedNameContext::QualifiedNameContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

std::vector<MkqParser::IdentContext *> MkqParser::QualifiedNameContext::ident() {
  return getRuleContexts<MkqParser::IdentContext>();
}

MkqParser::IdentContext* MkqParser::QualifiedNameContext::ident(size_t i) {
  return getRuleContext<MkqParser::IdentContext>(i);
}

std::vector<tree::TerminalNode *> MkqParser::QualifiedNameContext::DOT() {
  return getTokens(MkqParser::DOT);
}

tree::TerminalNode* MkqParser::QualifiedNameContext::DOT(size_t i) {
  return getToken(MkqParser::DOT, i);
}


size_t MkqParser::QualifiedNameContext::getRuleIndex() const {
  return MkqParser::RuleQualifiedName;
}


MkqParser::QualifiedNameContext* MkqParser::qualifiedName() {
  QualifiedNameContext *_localctx = _tracker.createInstance<QualifiedNameContext>(_ctx, getState());
  enterRule(_localctx, 30, MkqParser::RuleQualifiedName);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(169);
    ident();
    setState(174);
    _errHandler->sync(this);
    _la = _input->LA(1);
    while (_la == MkqParser::DOT) {
      setState(170);
      match(MkqParser::DOT);
      setState(171);
      ident();
      setState(176);
      _errHandler->sync(this);
      _la = _input->LA(1);
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- ArgsContext ------------------------------------------------------------------

MkqParser::ArgsContext::ArgsContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

std::vector<MkqParser::ArgContext *> MkqParser::ArgsContext::arg() {
  return getRuleContexts<MkqParser::ArgContext>();
}

MkqParser::ArgContext* MkqParser::ArgsContext::arg(size_t i) {
  return getRuleContext<MkqParser::ArgContext>(i);
}

std::vector<tree::TerminalNode *> MkqParser::ArgsContext::COMMA() {
  return getTokens(MkqParser::COMMA);
}

tree::TerminalNode* MkqParser::ArgsContext::COMMA(size_t i) {
  return getToken(MkqParser::COMMA, i);
}


size_t MkqParser::ArgsContext::getRuleIndex() const {
  return MkqParser::RuleArgs;
}


MkqParser::ArgsContext* MkqParser::args() {
  ArgsContext *_localctx = _tracker.createInstance<ArgsContext>(_ctx, getState());
  enterRule(_localctx, 32, MkqParser::RuleArgs);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    size_t alt;
    enterOuterAlt(_localctx, 1);
    setState(177);
    arg();
    setState(182);
    _errHandler->sync(this);
    alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 17, _ctx);
    while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
      if (alt == 1) {
        setState(178);
        match(MkqParser::COMMA);
        setState(179);
        arg(); 
      }
      setState(184);
      _errHandler->sync(this);
      alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 17, _ctx);
    }
    setState(186);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::COMMA) {
      setState(185);
      match(MkqParser::COMMA);
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- ArgContext ------------------------------------------------------------------

MkqParser::ArgContext::ArgContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

MkqParser::ExprContext* MkqParser::ArgContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}

MkqParser::IdentContext* MkqParser::ArgContext::ident() {
  return getRuleContext<MkqParser::IdentContext>(0);
}

tree::TerminalNode* MkqParser::ArgContext::ASSIGN() {
  return getToken(MkqParser::ASSIGN, 0);
}


size_t MkqParser::ArgContext::getRuleIndex() const {
  return MkqParser::RuleArg;
}


MkqParser::ArgContext* MkqParser::arg() {
  ArgContext *_localctx = _tracker.createInstance<ArgContext>(_ctx, getState());
  enterRule(_localctx, 34, MkqParser::RuleArg);

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(191);
    _errHandler->sync(this);

    switch (getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 19, _ctx)) {
    case 1: {
      setState(188);
      ident();
      setState(189);
      match(MkqParser::ASSIGN);
      break;
    }

    }
    setState(193);
    expr(0);
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- ExprContext ------------------------------------------------------------------

MkqParser::ExprContext::ExprContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}


size_t MkqParser::ExprContext::getRuleIndex() const {
  return MkqParser::RuleExpr;
}

void MkqParser::ExprContext::copyFrom(ExprContext *ctx) {
  ParserRuleContext::copyFrom(ctx);
}

//----------------- IndexExprContext ------------------------------------------------------------------

std::vector<MkqParser::ExprContext *> MkqParser::IndexExprContext::expr() {
  return getRuleContexts<MkqParser::ExprContext>();
}

MkqParser::ExprContext* MkqParser::IndexExprContext::expr(size_t i) {
  return getRuleContext<MkqParser::ExprContext>(i);
}

tree::TerminalNode* MkqParser::IndexExprContext::LBRACK() {
  return getToken(MkqParser::LBRACK, 0);
}

tree::TerminalNode* MkqParser::IndexExprContext::RBRACK() {
  return getToken(MkqParser::RBRACK, 0);
}

MkqParser::IndexExprContext::IndexExprContext(ExprContext *ctx) { copyFrom(ctx); }


//----------------- UnaryExprContext ------------------------------------------------------------------

MkqParser::ExprContext* MkqParser::UnaryExprContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}

tree::TerminalNode* MkqParser::UnaryExprContext::MINUS() {
  return getToken(MkqParser::MINUS, 0);
}

tree::TerminalNode* MkqParser::UnaryExprContext::NOT() {
  return getToken(MkqParser::NOT, 0);
}

MkqParser::UnaryExprContext::UnaryExprContext(ExprContext *ctx) { copyFrom(ctx); }


//----------------- PrimaryExprContext ------------------------------------------------------------------

MkqParser::PrimaryContext* MkqParser::PrimaryExprContext::primary() {
  return getRuleContext<MkqParser::PrimaryContext>(0);
}

MkqParser::PrimaryExprContext::PrimaryExprContext(ExprContext *ctx) { copyFrom(ctx); }


//----------------- BinaryExprContext ------------------------------------------------------------------

std::vector<MkqParser::ExprContext *> MkqParser::BinaryExprContext::expr() {
  return getRuleContexts<MkqParser::ExprContext>();
}

MkqParser::ExprContext* MkqParser::BinaryExprContext::expr(size_t i) {
  return getRuleContext<MkqParser::ExprContext>(i);
}

tree::TerminalNode* MkqParser::BinaryExprContext::STAR() {
  return getToken(MkqParser::STAR, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::SLASH() {
  return getToken(MkqParser::SLASH, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::PERCENT() {
  return getToken(MkqParser::PERCENT, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::PLUS() {
  return getToken(MkqParser::PLUS, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::MINUS() {
  return getToken(MkqParser::MINUS, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::LT() {
  return getToken(MkqParser::LT, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::LE() {
  return getToken(MkqParser::LE, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::GT() {
  return getToken(MkqParser::GT, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::GE() {
  return getToken(MkqParser::GE, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::EQ() {
  return getToken(MkqParser::EQ, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::NE() {
  return getToken(MkqParser::NE, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::IN() {
  return getToken(MkqParser::IN, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::AND() {
  return getToken(MkqParser::AND, 0);
}

tree::TerminalNode* MkqParser::BinaryExprContext::OR() {
  return getToken(MkqParser::OR, 0);
}

MkqParser::BinaryExprContext::BinaryExprContext(ExprContext *ctx) { copyFrom(ctx); }


//----------------- CallExprContext ------------------------------------------------------------------

MkqParser::ExprContext* MkqParser::CallExprContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}

tree::TerminalNode* MkqParser::CallExprContext::LPAREN() {
  return getToken(MkqParser::LPAREN, 0);
}

tree::TerminalNode* MkqParser::CallExprContext::RPAREN() {
  return getToken(MkqParser::RPAREN, 0);
}

MkqParser::ArgsContext* MkqParser::CallExprContext::args() {
  return getRuleContext<MkqParser::ArgsContext>(0);
}

MkqParser::CallExprContext::CallExprContext(ExprContext *ctx) { copyFrom(ctx); }


//----------------- FieldExprContext ------------------------------------------------------------------

MkqParser::ExprContext* MkqParser::FieldExprContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}

tree::TerminalNode* MkqParser::FieldExprContext::DOT() {
  return getToken(MkqParser::DOT, 0);
}

MkqParser::IdentContext* MkqParser::FieldExprContext::ident() {
  return getRuleContext<MkqParser::IdentContext>(0);
}

MkqParser::FieldExprContext::FieldExprContext(ExprContext *ctx) { copyFrom(ctx); }


//----------------- ConditionalExprContext ------------------------------------------------------------------

std::vector<MkqParser::ExprContext *> MkqParser::ConditionalExprContext::expr() {
  return getRuleContexts<MkqParser::ExprContext>();
}

MkqParser::ExprContext* MkqParser::ConditionalExprContext::expr(size_t i) {
  return getRuleContext<MkqParser::ExprContext>(i);
}

tree::TerminalNode* MkqParser::ConditionalExprContext::QUESTION() {
  return getToken(MkqParser::QUESTION, 0);
}

tree::TerminalNode* MkqParser::ConditionalExprContext::COLON() {
  return getToken(MkqParser::COLON, 0);
}

MkqParser::ConditionalExprContext::ConditionalExprContext(ExprContext *ctx) { copyFrom(ctx); }



MkqParser::ExprContext* MkqParser::expr() {
   return expr(0);
}

MkqParser::ExprContext* MkqParser::expr(int precedence) {
  ParserRuleContext *parentContext = _ctx;
  size_t parentState = getState();
  MkqParser::ExprContext *_localctx = _tracker.createInstance<ExprContext>(_ctx, parentState);
  MkqParser::ExprContext *previousContext = _localctx;
  (void)previousContext; // Silence compiler, in case the context is not used by generated code.
  size_t startState = 36;
  enterRecursionRule(_localctx, 36, MkqParser::RuleExpr, precedence);

    size_t _la = 0;

  auto onExit = finally([=] {
    unrollRecursionContexts(parentContext);
  });
  try {
    size_t alt;
    enterOuterAlt(_localctx, 1);
    setState(199);
    _errHandler->sync(this);
    switch (_input->LA(1)) {
      case MkqParser::TRUE:
      case MkqParser::FALSE:
      case MkqParser::NULL_LIT:
      case MkqParser::ALL:
      case MkqParser::MANAGER:
      case MkqParser::WORKER:
      case MkqParser::FLAVOR:
      case MkqParser::TOPOLOGY:
      case MkqParser::COHORT:
      case MkqParser::CLUSTERQUEUE:
      case MkqParser::LOCALQUEUE:
      case MkqParser::NAMESPACE:
      case MkqParser::PRIORITYCLASS:
      case MkqParser::DISPATCH:
      case MkqParser::KUEUE:
      case MkqParser::ACCESS:
      case MkqParser::INTEGRATION:
      case MkqParser::LBRACE:
      case MkqParser::LBRACK:
      case MkqParser::LPAREN:
      case MkqParser::DURATION:
      case MkqParser::NUMBER:
      case MkqParser::BAD_NUMBER:
      case MkqParser::IDENT:
      case MkqParser::STRING:
      case MkqParser::UNTERMINATED_STRING: {
        _localctx = _tracker.createInstance<PrimaryExprContext>(_localctx);
        _ctx = _localctx;
        previousContext = _localctx;

        setState(196);
        primary();
        break;
      }

      case MkqParser::MINUS:
      case MkqParser::NOT: {
        _localctx = _tracker.createInstance<UnaryExprContext>(_localctx);
        _ctx = _localctx;
        previousContext = _localctx;
        setState(197);
        dynamic_cast<UnaryExprContext *>(_localctx)->op = _input->LT(1);
        _la = _input->LA(1);
        if (!(_la == MkqParser::MINUS

        || _la == MkqParser::NOT)) {
          dynamic_cast<UnaryExprContext *>(_localctx)->op = _errHandler->recoverInline(this);
        }
        else {
          _errHandler->reportMatch(this);
          consume();
        }
        setState(198);
        expr(9);
        break;
      }

    default:
      throw NoViableAltException(this);
    }
    _ctx->stop = _input->LT(-1);
    setState(244);
    _errHandler->sync(this);
    alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 23, _ctx);
    while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
      if (alt == 1) {
        if (!_parseListeners.empty())
          triggerExitRuleEvent();
        previousContext = _localctx;
        setState(242);
        _errHandler->sync(this);
        switch (getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 22, _ctx)) {
        case 1: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(201);

          if (!(precpred(_ctx, 8))) throw FailedPredicateException(this, "precpred(_ctx, 8)");
          setState(202);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = _input->LT(1);
          _la = _input->LA(1);
          if (!((((_la & ~ 0x3fULL) == 0) &&
            ((1ULL << _la) & ((1ULL << MkqParser::STAR)
            | (1ULL << MkqParser::SLASH)
            | (1ULL << MkqParser::PERCENT))) != 0))) {
            dynamic_cast<BinaryExprContext *>(_localctx)->op = _errHandler->recoverInline(this);
          }
          else {
            _errHandler->reportMatch(this);
            consume();
          }
          setState(203);
          expr(9);
          break;
        }

        case 2: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(204);

          if (!(precpred(_ctx, 7))) throw FailedPredicateException(this, "precpred(_ctx, 7)");
          setState(205);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = _input->LT(1);
          _la = _input->LA(1);
          if (!(_la == MkqParser::PLUS

          || _la == MkqParser::MINUS)) {
            dynamic_cast<BinaryExprContext *>(_localctx)->op = _errHandler->recoverInline(this);
          }
          else {
            _errHandler->reportMatch(this);
            consume();
          }
          setState(206);
          expr(8);
          break;
        }

        case 3: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(207);

          if (!(precpred(_ctx, 6))) throw FailedPredicateException(this, "precpred(_ctx, 6)");
          setState(208);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = _input->LT(1);
          _la = _input->LA(1);
          if (!((((_la & ~ 0x3fULL) == 0) &&
            ((1ULL << _la) & ((1ULL << MkqParser::LE)
            | (1ULL << MkqParser::GE)
            | (1ULL << MkqParser::LT)
            | (1ULL << MkqParser::GT))) != 0))) {
            dynamic_cast<BinaryExprContext *>(_localctx)->op = _errHandler->recoverInline(this);
          }
          else {
            _errHandler->reportMatch(this);
            consume();
          }
          setState(209);
          expr(7);
          break;
        }

        case 4: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(210);

          if (!(precpred(_ctx, 5))) throw FailedPredicateException(this, "precpred(_ctx, 5)");
          setState(211);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = _input->LT(1);
          _la = _input->LA(1);
          if (!(_la == MkqParser::EQ

          || _la == MkqParser::NE)) {
            dynamic_cast<BinaryExprContext *>(_localctx)->op = _errHandler->recoverInline(this);
          }
          else {
            _errHandler->reportMatch(this);
            consume();
          }
          setState(212);
          expr(6);
          break;
        }

        case 5: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(213);

          if (!(precpred(_ctx, 4))) throw FailedPredicateException(this, "precpred(_ctx, 4)");
          setState(214);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = match(MkqParser::IN);
          setState(215);
          expr(5);
          break;
        }

        case 6: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(216);

          if (!(precpred(_ctx, 3))) throw FailedPredicateException(this, "precpred(_ctx, 3)");
          setState(217);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = match(MkqParser::AND);
          setState(218);
          expr(4);
          break;
        }

        case 7: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(219);

          if (!(precpred(_ctx, 2))) throw FailedPredicateException(this, "precpred(_ctx, 2)");
          setState(220);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = match(MkqParser::OR);
          setState(221);
          expr(3);
          break;
        }

        case 8: {
          auto newContext = _tracker.createInstance<ConditionalExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(222);

          if (!(precpred(_ctx, 1))) throw FailedPredicateException(this, "precpred(_ctx, 1)");
          setState(223);
          match(MkqParser::QUESTION);
          setState(224);
          expr(0);
          setState(225);
          match(MkqParser::COLON);
          setState(226);
          expr(1);
          break;
        }

        case 9: {
          auto newContext = _tracker.createInstance<FieldExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(228);

          if (!(precpred(_ctx, 12))) throw FailedPredicateException(this, "precpred(_ctx, 12)");
          setState(229);
          match(MkqParser::DOT);
          setState(230);
          ident();
          break;
        }

        case 10: {
          auto newContext = _tracker.createInstance<IndexExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(231);

          if (!(precpred(_ctx, 11))) throw FailedPredicateException(this, "precpred(_ctx, 11)");
          setState(232);
          match(MkqParser::LBRACK);
          setState(233);
          expr(0);
          setState(234);
          match(MkqParser::RBRACK);
          break;
        }

        case 11: {
          auto newContext = _tracker.createInstance<CallExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(236);

          if (!(precpred(_ctx, 10))) throw FailedPredicateException(this, "precpred(_ctx, 10)");
          setState(237);
          match(MkqParser::LPAREN);
          setState(239);
          _errHandler->sync(this);

          _la = _input->LA(1);
          if ((((_la & ~ 0x3fULL) == 0) &&
            ((1ULL << _la) & ((1ULL << MkqParser::TRUE)
            | (1ULL << MkqParser::FALSE)
            | (1ULL << MkqParser::NULL_LIT)
            | (1ULL << MkqParser::ALL)
            | (1ULL << MkqParser::MANAGER)
            | (1ULL << MkqParser::WORKER)
            | (1ULL << MkqParser::FLAVOR)
            | (1ULL << MkqParser::TOPOLOGY)
            | (1ULL << MkqParser::COHORT)
            | (1ULL << MkqParser::CLUSTERQUEUE)
            | (1ULL << MkqParser::LOCALQUEUE)
            | (1ULL << MkqParser::NAMESPACE)
            | (1ULL << MkqParser::PRIORITYCLASS)
            | (1ULL << MkqParser::DISPATCH)
            | (1ULL << MkqParser::KUEUE)
            | (1ULL << MkqParser::ACCESS)
            | (1ULL << MkqParser::INTEGRATION)
            | (1ULL << MkqParser::LBRACE)
            | (1ULL << MkqParser::LBRACK)
            | (1ULL << MkqParser::LPAREN)
            | (1ULL << MkqParser::MINUS)
            | (1ULL << MkqParser::NOT)
            | (1ULL << MkqParser::DURATION)
            | (1ULL << MkqParser::NUMBER)
            | (1ULL << MkqParser::BAD_NUMBER)
            | (1ULL << MkqParser::IDENT)
            | (1ULL << MkqParser::STRING)
            | (1ULL << MkqParser::UNTERMINATED_STRING))) != 0)) {
            setState(238);
            args();
          }
          setState(241);
          match(MkqParser::RPAREN);
          break;
        }

        } 
      }
      setState(246);
      _errHandler->sync(this);
      alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 23, _ctx);
    }
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }
  return _localctx;
}

//----------------- PrimaryContext ------------------------------------------------------------------

MkqParser::PrimaryContext::PrimaryContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}


size_t MkqParser::PrimaryContext::getRuleIndex() const {
  return MkqParser::RulePrimary;
}

void MkqParser::PrimaryContext::copyFrom(PrimaryContext *ctx) {
  ParserRuleContext::copyFrom(ctx);
}

//----------------- StringExprContext ------------------------------------------------------------------

MkqParser::StringLitContext* MkqParser::StringExprContext::stringLit() {
  return getRuleContext<MkqParser::StringLitContext>(0);
}

MkqParser::StringExprContext::StringExprContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- MapLitContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::MapLitContext::LBRACE() {
  return getToken(MkqParser::LBRACE, 0);
}

tree::TerminalNode* MkqParser::MapLitContext::RBRACE() {
  return getToken(MkqParser::RBRACE, 0);
}

std::vector<MkqParser::MapEntryContext *> MkqParser::MapLitContext::mapEntry() {
  return getRuleContexts<MkqParser::MapEntryContext>();
}

MkqParser::MapEntryContext* MkqParser::MapLitContext::mapEntry(size_t i) {
  return getRuleContext<MkqParser::MapEntryContext>(i);
}

std::vector<tree::TerminalNode *> MkqParser::MapLitContext::COMMA() {
  return getTokens(MkqParser::COMMA);
}

tree::TerminalNode* MkqParser::MapLitContext::COMMA(size_t i) {
  return getToken(MkqParser::COMMA, i);
}

MkqParser::MapLitContext::MapLitContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- ListLitContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::ListLitContext::LBRACK() {
  return getToken(MkqParser::LBRACK, 0);
}

tree::TerminalNode* MkqParser::ListLitContext::RBRACK() {
  return getToken(MkqParser::RBRACK, 0);
}

std::vector<MkqParser::ExprContext *> MkqParser::ListLitContext::expr() {
  return getRuleContexts<MkqParser::ExprContext>();
}

MkqParser::ExprContext* MkqParser::ListLitContext::expr(size_t i) {
  return getRuleContext<MkqParser::ExprContext>(i);
}

MkqParser::ComprehensionTailContext* MkqParser::ListLitContext::comprehensionTail() {
  return getRuleContext<MkqParser::ComprehensionTailContext>(0);
}

std::vector<tree::TerminalNode *> MkqParser::ListLitContext::COMMA() {
  return getTokens(MkqParser::COMMA);
}

tree::TerminalNode* MkqParser::ListLitContext::COMMA(size_t i) {
  return getToken(MkqParser::COMMA, i);
}

MkqParser::ListLitContext::ListLitContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- DurationLitContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::DurationLitContext::DURATION() {
  return getToken(MkqParser::DURATION, 0);
}

MkqParser::DurationLitContext::DurationLitContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- TrueLitContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::TrueLitContext::TRUE() {
  return getToken(MkqParser::TRUE, 0);
}

MkqParser::TrueLitContext::TrueLitContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- FalseLitContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::FalseLitContext::FALSE() {
  return getToken(MkqParser::FALSE, 0);
}

MkqParser::FalseLitContext::FalseLitContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- NullLitContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::NullLitContext::NULL_LIT() {
  return getToken(MkqParser::NULL_LIT, 0);
}

MkqParser::NullLitContext::NullLitContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- NumberLitContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::NumberLitContext::NUMBER() {
  return getToken(MkqParser::NUMBER, 0);
}

MkqParser::NumberLitContext::NumberLitContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- NameRefContext ------------------------------------------------------------------

MkqParser::IdentContext* MkqParser::NameRefContext::ident() {
  return getRuleContext<MkqParser::IdentContext>(0);
}

MkqParser::NameRefContext::NameRefContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- BadNumberLitContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::BadNumberLitContext::BAD_NUMBER() {
  return getToken(MkqParser::BAD_NUMBER, 0);
}

MkqParser::BadNumberLitContext::BadNumberLitContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- AllLitContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::AllLitContext::ALL() {
  return getToken(MkqParser::ALL, 0);
}

MkqParser::AllLitContext::AllLitContext(PrimaryContext *ctx) { copyFrom(ctx); }


//----------------- ParenExprContext ------------------------------------------------------------------

tree::TerminalNode* MkqParser::ParenExprContext::LPAREN() {
  return getToken(MkqParser::LPAREN, 0);
}

MkqParser::ExprContext* MkqParser::ParenExprContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}

tree::TerminalNode* MkqParser::ParenExprContext::RPAREN() {
  return getToken(MkqParser::RPAREN, 0);
}

MkqParser::ParenExprContext::ParenExprContext(PrimaryContext *ctx) { copyFrom(ctx); }


MkqParser::PrimaryContext* MkqParser::primary() {
  PrimaryContext *_localctx = _tracker.createInstance<PrimaryContext>(_ctx, getState());
  enterRule(_localctx, 38, MkqParser::RulePrimary);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    size_t alt;
    setState(293);
    _errHandler->sync(this);
    switch (_input->LA(1)) {
      case MkqParser::NUMBER: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::NumberLitContext>(_localctx));
        enterOuterAlt(_localctx, 1);
        setState(247);
        match(MkqParser::NUMBER);
        break;
      }

      case MkqParser::BAD_NUMBER: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::BadNumberLitContext>(_localctx));
        enterOuterAlt(_localctx, 2);
        setState(248);
        match(MkqParser::BAD_NUMBER);
        break;
      }

      case MkqParser::DURATION: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::DurationLitContext>(_localctx));
        enterOuterAlt(_localctx, 3);
        setState(249);
        match(MkqParser::DURATION);
        break;
      }

      case MkqParser::STRING:
      case MkqParser::UNTERMINATED_STRING: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::StringExprContext>(_localctx));
        enterOuterAlt(_localctx, 4);
        setState(250);
        stringLit();
        break;
      }

      case MkqParser::TRUE: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::TrueLitContext>(_localctx));
        enterOuterAlt(_localctx, 5);
        setState(251);
        match(MkqParser::TRUE);
        break;
      }

      case MkqParser::FALSE: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::FalseLitContext>(_localctx));
        enterOuterAlt(_localctx, 6);
        setState(252);
        match(MkqParser::FALSE);
        break;
      }

      case MkqParser::NULL_LIT: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::NullLitContext>(_localctx));
        enterOuterAlt(_localctx, 7);
        setState(253);
        match(MkqParser::NULL_LIT);
        break;
      }

      case MkqParser::ALL: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::AllLitContext>(_localctx));
        enterOuterAlt(_localctx, 8);
        setState(254);
        match(MkqParser::ALL);
        break;
      }

      case MkqParser::MANAGER:
      case MkqParser::WORKER:
      case MkqParser::FLAVOR:
      case MkqParser::TOPOLOGY:
      case MkqParser::COHORT:
      case MkqParser::CLUSTERQUEUE:
      case MkqParser::LOCALQUEUE:
      case MkqParser::NAMESPACE:
      case MkqParser::PRIORITYCLASS:
      case MkqParser::DISPATCH:
      case MkqParser::KUEUE:
      case MkqParser::ACCESS:
      case MkqParser::INTEGRATION:
      case MkqParser::IDENT: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::NameRefContext>(_localctx));
        enterOuterAlt(_localctx, 9);
        setState(255);
        ident();
        break;
      }

      case MkqParser::LPAREN: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::ParenExprContext>(_localctx));
        enterOuterAlt(_localctx, 10);
        setState(256);
        match(MkqParser::LPAREN);
        setState(257);
        expr(0);
        setState(258);
        match(MkqParser::RPAREN);
        break;
      }

      case MkqParser::LBRACK: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::ListLitContext>(_localctx));
        enterOuterAlt(_localctx, 11);
        setState(260);
        match(MkqParser::LBRACK);
        setState(275);
        _errHandler->sync(this);

        _la = _input->LA(1);
        if ((((_la & ~ 0x3fULL) == 0) &&
          ((1ULL << _la) & ((1ULL << MkqParser::TRUE)
          | (1ULL << MkqParser::FALSE)
          | (1ULL << MkqParser::NULL_LIT)
          | (1ULL << MkqParser::ALL)
          | (1ULL << MkqParser::MANAGER)
          | (1ULL << MkqParser::WORKER)
          | (1ULL << MkqParser::FLAVOR)
          | (1ULL << MkqParser::TOPOLOGY)
          | (1ULL << MkqParser::COHORT)
          | (1ULL << MkqParser::CLUSTERQUEUE)
          | (1ULL << MkqParser::LOCALQUEUE)
          | (1ULL << MkqParser::NAMESPACE)
          | (1ULL << MkqParser::PRIORITYCLASS)
          | (1ULL << MkqParser::DISPATCH)
          | (1ULL << MkqParser::KUEUE)
          | (1ULL << MkqParser::ACCESS)
          | (1ULL << MkqParser::INTEGRATION)
          | (1ULL << MkqParser::LBRACE)
          | (1ULL << MkqParser::LBRACK)
          | (1ULL << MkqParser::LPAREN)
          | (1ULL << MkqParser::MINUS)
          | (1ULL << MkqParser::NOT)
          | (1ULL << MkqParser::DURATION)
          | (1ULL << MkqParser::NUMBER)
          | (1ULL << MkqParser::BAD_NUMBER)
          | (1ULL << MkqParser::IDENT)
          | (1ULL << MkqParser::STRING)
          | (1ULL << MkqParser::UNTERMINATED_STRING))) != 0)) {
          setState(261);
          expr(0);
          setState(273);
          _errHandler->sync(this);
          switch (_input->LA(1)) {
            case MkqParser::FOR: {
              setState(262);
              comprehensionTail();
              break;
            }

            case MkqParser::RBRACK:
            case MkqParser::COMMA: {
              setState(267);
              _errHandler->sync(this);
              alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 24, _ctx);
              while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
                if (alt == 1) {
                  setState(263);
                  match(MkqParser::COMMA);
                  setState(264);
                  expr(0); 
                }
                setState(269);
                _errHandler->sync(this);
                alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 24, _ctx);
              }
              setState(271);
              _errHandler->sync(this);

              _la = _input->LA(1);
              if (_la == MkqParser::COMMA) {
                setState(270);
                match(MkqParser::COMMA);
              }
              break;
            }

          default:
            throw NoViableAltException(this);
          }
        }
        setState(277);
        match(MkqParser::RBRACK);
        break;
      }

      case MkqParser::LBRACE: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::MapLitContext>(_localctx));
        enterOuterAlt(_localctx, 12);
        setState(278);
        match(MkqParser::LBRACE);
        setState(290);
        _errHandler->sync(this);

        _la = _input->LA(1);
        if ((((_la & ~ 0x3fULL) == 0) &&
          ((1ULL << _la) & ((1ULL << MkqParser::MANAGER)
          | (1ULL << MkqParser::WORKER)
          | (1ULL << MkqParser::FLAVOR)
          | (1ULL << MkqParser::TOPOLOGY)
          | (1ULL << MkqParser::COHORT)
          | (1ULL << MkqParser::CLUSTERQUEUE)
          | (1ULL << MkqParser::LOCALQUEUE)
          | (1ULL << MkqParser::NAMESPACE)
          | (1ULL << MkqParser::PRIORITYCLASS)
          | (1ULL << MkqParser::DISPATCH)
          | (1ULL << MkqParser::KUEUE)
          | (1ULL << MkqParser::ACCESS)
          | (1ULL << MkqParser::INTEGRATION)
          | (1ULL << MkqParser::IDENT)
          | (1ULL << MkqParser::STRING)
          | (1ULL << MkqParser::UNTERMINATED_STRING))) != 0)) {
          setState(279);
          mapEntry();
          setState(284);
          _errHandler->sync(this);
          alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 28, _ctx);
          while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
            if (alt == 1) {
              setState(280);
              match(MkqParser::COMMA);
              setState(281);
              mapEntry(); 
            }
            setState(286);
            _errHandler->sync(this);
            alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 28, _ctx);
          }
          setState(288);
          _errHandler->sync(this);

          _la = _input->LA(1);
          if (_la == MkqParser::COMMA) {
            setState(287);
            match(MkqParser::COMMA);
          }
        }
        setState(292);
        match(MkqParser::RBRACE);
        break;
      }

    default:
      throw NoViableAltException(this);
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- ComprehensionTailContext ------------------------------------------------------------------

MkqParser::ComprehensionTailContext::ComprehensionTailContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::ComprehensionTailContext::FOR() {
  return getToken(MkqParser::FOR, 0);
}

std::vector<MkqParser::IdentContext *> MkqParser::ComprehensionTailContext::ident() {
  return getRuleContexts<MkqParser::IdentContext>();
}

MkqParser::IdentContext* MkqParser::ComprehensionTailContext::ident(size_t i) {
  return getRuleContext<MkqParser::IdentContext>(i);
}

tree::TerminalNode* MkqParser::ComprehensionTailContext::IN() {
  return getToken(MkqParser::IN, 0);
}

std::vector<MkqParser::ExprContext *> MkqParser::ComprehensionTailContext::expr() {
  return getRuleContexts<MkqParser::ExprContext>();
}

MkqParser::ExprContext* MkqParser::ComprehensionTailContext::expr(size_t i) {
  return getRuleContext<MkqParser::ExprContext>(i);
}

tree::TerminalNode* MkqParser::ComprehensionTailContext::COMMA() {
  return getToken(MkqParser::COMMA, 0);
}

tree::TerminalNode* MkqParser::ComprehensionTailContext::IF() {
  return getToken(MkqParser::IF, 0);
}


size_t MkqParser::ComprehensionTailContext::getRuleIndex() const {
  return MkqParser::RuleComprehensionTail;
}


MkqParser::ComprehensionTailContext* MkqParser::comprehensionTail() {
  ComprehensionTailContext *_localctx = _tracker.createInstance<ComprehensionTailContext>(_ctx, getState());
  enterRule(_localctx, 40, MkqParser::RuleComprehensionTail);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(295);
    match(MkqParser::FOR);
    setState(296);
    ident();
    setState(299);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::COMMA) {
      setState(297);
      match(MkqParser::COMMA);
      setState(298);
      ident();
    }
    setState(301);
    match(MkqParser::IN);
    setState(302);
    expr(0);
    setState(305);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::IF) {
      setState(303);
      match(MkqParser::IF);
      setState(304);
      expr(0);
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- MapEntryContext ------------------------------------------------------------------

MkqParser::MapEntryContext::MapEntryContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::MapEntryContext::COLON() {
  return getToken(MkqParser::COLON, 0);
}

MkqParser::ExprContext* MkqParser::MapEntryContext::expr() {
  return getRuleContext<MkqParser::ExprContext>(0);
}

MkqParser::StringLitContext* MkqParser::MapEntryContext::stringLit() {
  return getRuleContext<MkqParser::StringLitContext>(0);
}

MkqParser::IdentContext* MkqParser::MapEntryContext::ident() {
  return getRuleContext<MkqParser::IdentContext>(0);
}


size_t MkqParser::MapEntryContext::getRuleIndex() const {
  return MkqParser::RuleMapEntry;
}


MkqParser::MapEntryContext* MkqParser::mapEntry() {
  MapEntryContext *_localctx = _tracker.createInstance<MapEntryContext>(_ctx, getState());
  enterRule(_localctx, 42, MkqParser::RuleMapEntry);

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(309);
    _errHandler->sync(this);
    switch (_input->LA(1)) {
      case MkqParser::STRING:
      case MkqParser::UNTERMINATED_STRING: {
        setState(307);
        stringLit();
        break;
      }

      case MkqParser::MANAGER:
      case MkqParser::WORKER:
      case MkqParser::FLAVOR:
      case MkqParser::TOPOLOGY:
      case MkqParser::COHORT:
      case MkqParser::CLUSTERQUEUE:
      case MkqParser::LOCALQUEUE:
      case MkqParser::NAMESPACE:
      case MkqParser::PRIORITYCLASS:
      case MkqParser::DISPATCH:
      case MkqParser::KUEUE:
      case MkqParser::ACCESS:
      case MkqParser::INTEGRATION:
      case MkqParser::IDENT: {
        setState(308);
        ident();
        break;
      }

    default:
      throw NoViableAltException(this);
    }
    setState(311);
    match(MkqParser::COLON);
    setState(312);
    expr(0);
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- StringLitContext ------------------------------------------------------------------

MkqParser::StringLitContext::StringLitContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::StringLitContext::STRING() {
  return getToken(MkqParser::STRING, 0);
}

tree::TerminalNode* MkqParser::StringLitContext::UNTERMINATED_STRING() {
  return getToken(MkqParser::UNTERMINATED_STRING, 0);
}


size_t MkqParser::StringLitContext::getRuleIndex() const {
  return MkqParser::RuleStringLit;
}


MkqParser::StringLitContext* MkqParser::stringLit() {
  StringLitContext *_localctx = _tracker.createInstance<StringLitContext>(_ctx, getState());
  enterRule(_localctx, 44, MkqParser::RuleStringLit);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(314);
    _la = _input->LA(1);
    if (!(_la == MkqParser::STRING

    || _la == MkqParser::UNTERMINATED_STRING)) {
    _errHandler->recoverInline(this);
    }
    else {
      _errHandler->reportMatch(this);
      consume();
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

//----------------- IdentContext ------------------------------------------------------------------

MkqParser::IdentContext::IdentContext(ParserRuleContext *parent, size_t invokingState)
  : ParserRuleContext(parent, invokingState) {
}

tree::TerminalNode* MkqParser::IdentContext::IDENT() {
  return getToken(MkqParser::IDENT, 0);
}

tree::TerminalNode* MkqParser::IdentContext::MANAGER() {
  return getToken(MkqParser::MANAGER, 0);
}

tree::TerminalNode* MkqParser::IdentContext::WORKER() {
  return getToken(MkqParser::WORKER, 0);
}

tree::TerminalNode* MkqParser::IdentContext::FLAVOR() {
  return getToken(MkqParser::FLAVOR, 0);
}

tree::TerminalNode* MkqParser::IdentContext::TOPOLOGY() {
  return getToken(MkqParser::TOPOLOGY, 0);
}

tree::TerminalNode* MkqParser::IdentContext::COHORT() {
  return getToken(MkqParser::COHORT, 0);
}

tree::TerminalNode* MkqParser::IdentContext::CLUSTERQUEUE() {
  return getToken(MkqParser::CLUSTERQUEUE, 0);
}

tree::TerminalNode* MkqParser::IdentContext::LOCALQUEUE() {
  return getToken(MkqParser::LOCALQUEUE, 0);
}

tree::TerminalNode* MkqParser::IdentContext::NAMESPACE() {
  return getToken(MkqParser::NAMESPACE, 0);
}

tree::TerminalNode* MkqParser::IdentContext::PRIORITYCLASS() {
  return getToken(MkqParser::PRIORITYCLASS, 0);
}

tree::TerminalNode* MkqParser::IdentContext::DISPATCH() {
  return getToken(MkqParser::DISPATCH, 0);
}

tree::TerminalNode* MkqParser::IdentContext::KUEUE() {
  return getToken(MkqParser::KUEUE, 0);
}

tree::TerminalNode* MkqParser::IdentContext::ACCESS() {
  return getToken(MkqParser::ACCESS, 0);
}

tree::TerminalNode* MkqParser::IdentContext::INTEGRATION() {
  return getToken(MkqParser::INTEGRATION, 0);
}


size_t MkqParser::IdentContext::getRuleIndex() const {
  return MkqParser::RuleIdent;
}


MkqParser::IdentContext* MkqParser::ident() {
  IdentContext *_localctx = _tracker.createInstance<IdentContext>(_ctx, getState());
  enterRule(_localctx, 46, MkqParser::RuleIdent);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(316);
    _la = _input->LA(1);
    if (!((((_la & ~ 0x3fULL) == 0) &&
      ((1ULL << _la) & ((1ULL << MkqParser::MANAGER)
      | (1ULL << MkqParser::WORKER)
      | (1ULL << MkqParser::FLAVOR)
      | (1ULL << MkqParser::TOPOLOGY)
      | (1ULL << MkqParser::COHORT)
      | (1ULL << MkqParser::CLUSTERQUEUE)
      | (1ULL << MkqParser::LOCALQUEUE)
      | (1ULL << MkqParser::NAMESPACE)
      | (1ULL << MkqParser::PRIORITYCLASS)
      | (1ULL << MkqParser::DISPATCH)
      | (1ULL << MkqParser::KUEUE)
      | (1ULL << MkqParser::ACCESS)
      | (1ULL << MkqParser::INTEGRATION)
      | (1ULL << MkqParser::IDENT))) != 0))) {
    _errHandler->recoverInline(this);
    }
    else {
      _errHandler->reportMatch(this);
      consume();
    }
   
  }
  catch (RecognitionException &e) {
    _errHandler->reportError(this, e);
    _localctx->exception = std::current_exception();
    _errHandler->recover(this, _localctx->exception);
  }

  return _localctx;
}

bool MkqParser::sempred(RuleContext *context, size_t ruleIndex, size_t predicateIndex) {
  switch (ruleIndex) {
    case 18: return exprSempred(dynamic_cast<ExprContext *>(context), predicateIndex);

  default:
    break;
  }
  return true;
}

bool MkqParser::exprSempred(ExprContext *_localctx, size_t predicateIndex) {
  switch (predicateIndex) {
    case 0: return precpred(_ctx, 8);
    case 1: return precpred(_ctx, 7);
    case 2: return precpred(_ctx, 6);
    case 3: return precpred(_ctx, 5);
    case 4: return precpred(_ctx, 4);
    case 5: return precpred(_ctx, 3);
    case 6: return precpred(_ctx, 2);
    case 7: return precpred(_ctx, 1);
    case 8: return precpred(_ctx, 12);
    case 9: return precpred(_ctx, 11);
    case 10: return precpred(_ctx, 10);

  default:
    break;
  }
  return true;
}

// Static vars and initialization.
std::vector<dfa::DFA> MkqParser::_decisionToDFA;
atn::PredictionContextCache MkqParser::_sharedContextCache;

// We own the ATN which in turn owns the ATN states.
atn::ATN MkqParser::_atn;
std::vector<uint16_t> MkqParser::_serializedATN;

std::vector<std::string> MkqParser::_ruleNames = {
  "file", "stmt", "importStmt", "letStmt", "templateStmt", "params", "param", 
  "forStmt", "ifStmt", "assertStmt", "useStmt", "attribute", "block", "body", 
  "blockKind", "qualifiedName", "args", "arg", "expr", "primary", "comprehensionTail", 
  "mapEntry", "stringLit", "ident"
};

std::vector<std::string> MkqParser::_literalNames = {
  "", "'import'", "'as'", "'let'", "'template'", "'use'", "'for'", "'in'", 
  "'if'", "'else'", "'assert'", "'true'", "'false'", "'null'", "'all'", 
  "'manager'", "'worker'", "'flavor'", "'topology'", "'cohort'", "'clusterqueue'", 
  "'localqueue'", "'namespace'", "'priorityclass'", "'dispatch'", "'kueue'", 
  "'access'", "'integration'", "'{'", "'}'", "'['", "']'", "'('", "')'", 
  "','", "';'", "'.'", "':'", "'?'", "'=='", "'!='", "'<='", "'>='", "'<'", 
  "'>'", "'='", "'+'", "'-'", "'*'", "'/'", "'%'", "'&&'", "'||'", "'!'"
};

std::vector<std::string> MkqParser::_symbolicNames = {
  "", "IMPORT", "AS", "LET", "TEMPLATE", "USE", "FOR", "IN", "IF", "ELSE", 
  "ASSERT", "TRUE", "FALSE", "NULL_LIT", "ALL", "MANAGER", "WORKER", "FLAVOR", 
  "TOPOLOGY", "COHORT", "CLUSTERQUEUE", "LOCALQUEUE", "NAMESPACE", "PRIORITYCLASS", 
  "DISPATCH", "KUEUE", "ACCESS", "INTEGRATION", "LBRACE", "RBRACE", "LBRACK", 
  "RBRACK", "LPAREN", "RPAREN", "COMMA", "SEP", "DOT", "COLON", "QUESTION", 
  "EQ", "NE", "LE", "GE", "LT", "GT", "ASSIGN", "PLUS", "MINUS", "STAR", 
  "SLASH", "PERCENT", "AND", "OR", "NOT", "DURATION", "NUMBER", "BAD_NUMBER", 
  "IDENT", "STRING", "UNTERMINATED_STRING", "LINE_COMMENT", "BLOCK_COMMENT", 
  "UNTERMINATED_COMMENT", "WS", "STRAY"
};

dfa::Vocabulary MkqParser::_vocabulary(_literalNames, _symbolicNames);

std::vector<std::string> MkqParser::_tokenNames;

MkqParser::Initializer::Initializer() {
	for (size_t i = 0; i < _symbolicNames.size(); ++i) {
		std::string name = _vocabulary.getLiteralName(i);
		if (name.empty()) {
			name = _vocabulary.getSymbolicName(i);
		}

		if (name.empty()) {
			_tokenNames.push_back("<INVALID>");
		} else {
      _tokenNames.push_back(name);
    }
	}

  _serializedATN = {
    0x3, 0x608b, 0xa72a, 0x8133, 0xb9ed, 0x417c, 0x3be7, 0x7786, 0x5964, 
    0x3, 0x42, 0x141, 0x4, 0x2, 0x9, 0x2, 0x4, 0x3, 0x9, 0x3, 0x4, 0x4, 
    0x9, 0x4, 0x4, 0x5, 0x9, 0x5, 0x4, 0x6, 0x9, 0x6, 0x4, 0x7, 0x9, 0x7, 
    0x4, 0x8, 0x9, 0x8, 0x4, 0x9, 0x9, 0x9, 0x4, 0xa, 0x9, 0xa, 0x4, 0xb, 
    0x9, 0xb, 0x4, 0xc, 0x9, 0xc, 0x4, 0xd, 0x9, 0xd, 0x4, 0xe, 0x9, 0xe, 
    0x4, 0xf, 0x9, 0xf, 0x4, 0x10, 0x9, 0x10, 0x4, 0x11, 0x9, 0x11, 0x4, 
    0x12, 0x9, 0x12, 0x4, 0x13, 0x9, 0x13, 0x4, 0x14, 0x9, 0x14, 0x4, 0x15, 
    0x9, 0x15, 0x4, 0x16, 0x9, 0x16, 0x4, 0x17, 0x9, 0x17, 0x4, 0x18, 0x9, 
    0x18, 0x4, 0x19, 0x9, 0x19, 0x3, 0x2, 0x7, 0x2, 0x34, 0xa, 0x2, 0xc, 
    0x2, 0xe, 0x2, 0x37, 0xb, 0x2, 0x3, 0x2, 0x3, 0x2, 0x3, 0x3, 0x3, 0x3, 
    0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 
    0x3, 0x3, 0x5, 0x3, 0x45, 0xa, 0x3, 0x3, 0x4, 0x3, 0x4, 0x3, 0x4, 0x3, 
    0x4, 0x5, 0x4, 0x4b, 0xa, 0x4, 0x3, 0x5, 0x3, 0x5, 0x3, 0x5, 0x3, 0x5, 
    0x3, 0x5, 0x3, 0x6, 0x3, 0x6, 0x3, 0x6, 0x3, 0x6, 0x5, 0x6, 0x56, 0xa, 
    0x6, 0x3, 0x6, 0x3, 0x6, 0x3, 0x6, 0x3, 0x7, 0x3, 0x7, 0x3, 0x7, 0x7, 
    0x7, 0x5e, 0xa, 0x7, 0xc, 0x7, 0xe, 0x7, 0x61, 0xb, 0x7, 0x3, 0x7, 0x5, 
    0x7, 0x64, 0xa, 0x7, 0x3, 0x8, 0x3, 0x8, 0x3, 0x8, 0x5, 0x8, 0x69, 0xa, 
    0x8, 0x3, 0x9, 0x3, 0x9, 0x3, 0x9, 0x3, 0x9, 0x5, 0x9, 0x6f, 0xa, 0x9, 
    0x3, 0x9, 0x3, 0x9, 0x3, 0x9, 0x3, 0x9, 0x3, 0xa, 0x3, 0xa, 0x3, 0xa, 
    0x3, 0xa, 0x3, 0xa, 0x3, 0xa, 0x5, 0xa, 0x7b, 0xa, 0xa, 0x5, 0xa, 0x7d, 
    0xa, 0xa, 0x3, 0xb, 0x3, 0xb, 0x3, 0xb, 0x3, 0xb, 0x5, 0xb, 0x83, 0xa, 
    0xb, 0x3, 0xc, 0x3, 0xc, 0x3, 0xc, 0x3, 0xc, 0x5, 0xc, 0x89, 0xa, 0xc, 
    0x3, 0xc, 0x3, 0xc, 0x3, 0xd, 0x3, 0xd, 0x5, 0xd, 0x8f, 0xa, 0xd, 0x3, 
    0xd, 0x3, 0xd, 0x3, 0xd, 0x3, 0xe, 0x3, 0xe, 0x7, 0xe, 0x96, 0xa, 0xe, 
    0xc, 0xe, 0xe, 0xe, 0x99, 0xb, 0xe, 0x3, 0xe, 0x3, 0xe, 0x5, 0xe, 0x9d, 
    0xa, 0xe, 0x3, 0xe, 0x3, 0xe, 0x3, 0xf, 0x3, 0xf, 0x7, 0xf, 0xa3, 0xa, 
    0xf, 0xc, 0xf, 0xe, 0xf, 0xa6, 0xb, 0xf, 0x3, 0xf, 0x3, 0xf, 0x3, 0x10, 
    0x3, 0x10, 0x3, 0x11, 0x3, 0x11, 0x3, 0x11, 0x7, 0x11, 0xaf, 0xa, 0x11, 
    0xc, 0x11, 0xe, 0x11, 0xb2, 0xb, 0x11, 0x3, 0x12, 0x3, 0x12, 0x3, 0x12, 
    0x7, 0x12, 0xb7, 0xa, 0x12, 0xc, 0x12, 0xe, 0x12, 0xba, 0xb, 0x12, 0x3, 
    0x12, 0x5, 0x12, 0xbd, 0xa, 0x12, 0x3, 0x13, 0x3, 0x13, 0x3, 0x13, 0x5, 
    0x13, 0xc2, 0xa, 0x13, 0x3, 0x13, 0x3, 0x13, 0x3, 0x14, 0x3, 0x14, 0x3, 
    0x14, 0x3, 0x14, 0x5, 0x14, 0xca, 0xa, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 
    0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 
    0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 
    0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 
    0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 
    0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 
    0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x5, 0x14, 0xf2, 0xa, 0x14, 0x3, 0x14, 
    0x7, 0x14, 0xf5, 0xa, 0x14, 0xc, 0x14, 0xe, 0x14, 0xf8, 0xb, 0x14, 0x3, 
    0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 
    0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 
    0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x7, 0x15, 0x10c, 
    0xa, 0x15, 0xc, 0x15, 0xe, 0x15, 0x10f, 0xb, 0x15, 0x3, 0x15, 0x5, 0x15, 
    0x112, 0xa, 0x15, 0x5, 0x15, 0x114, 0xa, 0x15, 0x5, 0x15, 0x116, 0xa, 
    0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x7, 0x15, 
    0x11d, 0xa, 0x15, 0xc, 0x15, 0xe, 0x15, 0x120, 0xb, 0x15, 0x3, 0x15, 
    0x5, 0x15, 0x123, 0xa, 0x15, 0x5, 0x15, 0x125, 0xa, 0x15, 0x3, 0x15, 
    0x5, 0x15, 0x128, 0xa, 0x15, 0x3, 0x16, 0x3, 0x16, 0x3, 0x16, 0x3, 0x16, 
    0x5, 0x16, 0x12e, 0xa, 0x16, 0x3, 0x16, 0x3, 0x16, 0x3, 0x16, 0x3, 0x16, 
    0x5, 0x16, 0x134, 0xa, 0x16, 0x3, 0x17, 0x3, 0x17, 0x5, 0x17, 0x138, 
    0xa, 0x17, 0x3, 0x17, 0x3, 0x17, 0x3, 0x17, 0x3, 0x18, 0x3, 0x18, 0x3, 
    0x19, 0x3, 0x19, 0x3, 0x19, 0x2, 0x3, 0x26, 0x1a, 0x2, 0x4, 0x6, 0x8, 
    0xa, 0xc, 0xe, 0x10, 0x12, 0x14, 0x16, 0x18, 0x1a, 0x1c, 0x1e, 0x20, 
    0x22, 0x24, 0x26, 0x28, 0x2a, 0x2c, 0x2e, 0x30, 0x2, 0xa, 0x3, 0x2, 
    0x24, 0x25, 0x4, 0x2, 0x11, 0x1d, 0x3b, 0x3b, 0x4, 0x2, 0x31, 0x31, 
    0x37, 0x37, 0x3, 0x2, 0x32, 0x34, 0x3, 0x2, 0x30, 0x31, 0x3, 0x2, 0x2b, 
    0x2e, 0x3, 0x2, 0x29, 0x2a, 0x3, 0x2, 0x3c, 0x3d, 0x2, 0x166, 0x2, 0x35, 
    0x3, 0x2, 0x2, 0x2, 0x4, 0x44, 0x3, 0x2, 0x2, 0x2, 0x6, 0x46, 0x3, 0x2, 
    0x2, 0x2, 0x8, 0x4c, 0x3, 0x2, 0x2, 0x2, 0xa, 0x51, 0x3, 0x2, 0x2, 0x2, 
    0xc, 0x5a, 0x3, 0x2, 0x2, 0x2, 0xe, 0x65, 0x3, 0x2, 0x2, 0x2, 0x10, 
    0x6a, 0x3, 0x2, 0x2, 0x2, 0x12, 0x74, 0x3, 0x2, 0x2, 0x2, 0x14, 0x7e, 
    0x3, 0x2, 0x2, 0x2, 0x16, 0x84, 0x3, 0x2, 0x2, 0x2, 0x18, 0x8e, 0x3, 
    0x2, 0x2, 0x2, 0x1a, 0x93, 0x3, 0x2, 0x2, 0x2, 0x1c, 0xa0, 0x3, 0x2, 
    0x2, 0x2, 0x1e, 0xa9, 0x3, 0x2, 0x2, 0x2, 0x20, 0xab, 0x3, 0x2, 0x2, 
    0x2, 0x22, 0xb3, 0x3, 0x2, 0x2, 0x2, 0x24, 0xc1, 0x3, 0x2, 0x2, 0x2, 
    0x26, 0xc9, 0x3, 0x2, 0x2, 0x2, 0x28, 0x127, 0x3, 0x2, 0x2, 0x2, 0x2a, 
    0x129, 0x3, 0x2, 0x2, 0x2, 0x2c, 0x137, 0x3, 0x2, 0x2, 0x2, 0x2e, 0x13c, 
    0x3, 0x2, 0x2, 0x2, 0x30, 0x13e, 0x3, 0x2, 0x2, 0x2, 0x32, 0x34, 0x5, 
    0x4, 0x3, 0x2, 0x33, 0x32, 0x3, 0x2, 0x2, 0x2, 0x34, 0x37, 0x3, 0x2, 
    0x2, 0x2, 0x35, 0x33, 0x3, 0x2, 0x2, 0x2, 0x35, 0x36, 0x3, 0x2, 0x2, 
    0x2, 0x36, 0x38, 0x3, 0x2, 0x2, 0x2, 0x37, 0x35, 0x3, 0x2, 0x2, 0x2, 
    0x38, 0x39, 0x7, 0x2, 0x2, 0x3, 0x39, 0x3, 0x3, 0x2, 0x2, 0x2, 0x3a, 
    0x45, 0x5, 0x6, 0x4, 0x2, 0x3b, 0x45, 0x5, 0x8, 0x5, 0x2, 0x3c, 0x45, 
    0x5, 0xa, 0x6, 0x2, 0x3d, 0x45, 0x5, 0x10, 0x9, 0x2, 0x3e, 0x45, 0x5, 
    0x12, 0xa, 0x2, 0x3f, 0x45, 0x5, 0x14, 0xb, 0x2, 0x40, 0x45, 0x5, 0x16, 
    0xc, 0x2, 0x41, 0x45, 0x5, 0x18, 0xd, 0x2, 0x42, 0x45, 0x5, 0x1a, 0xe, 
    0x2, 0x43, 0x45, 0x9, 0x2, 0x2, 0x2, 0x44, 0x3a, 0x3, 0x2, 0x2, 0x2, 
    0x44, 0x3b, 0x3, 0x2, 0x2, 0x2, 0x44, 0x3c, 0x3, 0x2, 0x2, 0x2, 0x44, 
    0x3d, 0x3, 0x2, 0x2, 0x2, 0x44, 0x3e, 0x3, 0x2, 0x2, 0x2, 0x44, 0x3f, 
    0x3, 0x2, 0x2, 0x2, 0x44, 0x40, 0x3, 0x2, 0x2, 0x2, 0x44, 0x41, 0x3, 
    0x2, 0x2, 0x2, 0x44, 0x42, 0x3, 0x2, 0x2, 0x2, 0x44, 0x43, 0x3, 0x2, 
    0x2, 0x2, 0x45, 0x5, 0x3, 0x2, 0x2, 0x2, 0x46, 0x47, 0x7, 0x3, 0x2, 
    0x2, 0x47, 0x4a, 0x5, 0x2e, 0x18, 0x2, 0x48, 0x49, 0x7, 0x4, 0x2, 0x2, 
    0x49, 0x4b, 0x5, 0x30, 0x19, 0x2, 0x4a, 0x48, 0x3, 0x2, 0x2, 0x2, 0x4a, 
    0x4b, 0x3, 0x2, 0x2, 0x2, 0x4b, 0x7, 0x3, 0x2, 0x2, 0x2, 0x4c, 0x4d, 
    0x7, 0x5, 0x2, 0x2, 0x4d, 0x4e, 0x5, 0x30, 0x19, 0x2, 0x4e, 0x4f, 0x7, 
    0x2f, 0x2, 0x2, 0x4f, 0x50, 0x5, 0x26, 0x14, 0x2, 0x50, 0x9, 0x3, 0x2, 
    0x2, 0x2, 0x51, 0x52, 0x7, 0x6, 0x2, 0x2, 0x52, 0x53, 0x5, 0x30, 0x19, 
    0x2, 0x53, 0x55, 0x7, 0x22, 0x2, 0x2, 0x54, 0x56, 0x5, 0xc, 0x7, 0x2, 
    0x55, 0x54, 0x3, 0x2, 0x2, 0x2, 0x55, 0x56, 0x3, 0x2, 0x2, 0x2, 0x56, 
    0x57, 0x3, 0x2, 0x2, 0x2, 0x57, 0x58, 0x7, 0x23, 0x2, 0x2, 0x58, 0x59, 
    0x5, 0x1c, 0xf, 0x2, 0x59, 0xb, 0x3, 0x2, 0x2, 0x2, 0x5a, 0x5f, 0x5, 
    0xe, 0x8, 0x2, 0x5b, 0x5c, 0x7, 0x24, 0x2, 0x2, 0x5c, 0x5e, 0x5, 0xe, 
    0x8, 0x2, 0x5d, 0x5b, 0x3, 0x2, 0x2, 0x2, 0x5e, 0x61, 0x3, 0x2, 0x2, 
    0x2, 0x5f, 0x5d, 0x3, 0x2, 0x2, 0x2, 0x5f, 0x60, 0x3, 0x2, 0x2, 0x2, 
    0x60, 0x63, 0x3, 0x2, 0x2, 0x2, 0x61, 0x5f, 0x3, 0x2, 0x2, 0x2, 0x62, 
    0x64, 0x7, 0x24, 0x2, 0x2, 0x63, 0x62, 0x3, 0x2, 0x2, 0x2, 0x63, 0x64, 
    0x3, 0x2, 0x2, 0x2, 0x64, 0xd, 0x3, 0x2, 0x2, 0x2, 0x65, 0x68, 0x5, 
    0x30, 0x19, 0x2, 0x66, 0x67, 0x7, 0x2f, 0x2, 0x2, 0x67, 0x69, 0x5, 0x26, 
    0x14, 0x2, 0x68, 0x66, 0x3, 0x2, 0x2, 0x2, 0x68, 0x69, 0x3, 0x2, 0x2, 
    0x2, 0x69, 0xf, 0x3, 0x2, 0x2, 0x2, 0x6a, 0x6b, 0x7, 0x8, 0x2, 0x2, 
    0x6b, 0x6e, 0x5, 0x30, 0x19, 0x2, 0x6c, 0x6d, 0x7, 0x24, 0x2, 0x2, 0x6d, 
    0x6f, 0x5, 0x30, 0x19, 0x2, 0x6e, 0x6c, 0x3, 0x2, 0x2, 0x2, 0x6e, 0x6f, 
    0x3, 0x2, 0x2, 0x2, 0x6f, 0x70, 0x3, 0x2, 0x2, 0x2, 0x70, 0x71, 0x7, 
    0x9, 0x2, 0x2, 0x71, 0x72, 0x5, 0x26, 0x14, 0x2, 0x72, 0x73, 0x5, 0x1c, 
    0xf, 0x2, 0x73, 0x11, 0x3, 0x2, 0x2, 0x2, 0x74, 0x75, 0x7, 0xa, 0x2, 
    0x2, 0x75, 0x76, 0x5, 0x26, 0x14, 0x2, 0x76, 0x7c, 0x5, 0x1c, 0xf, 0x2, 
    0x77, 0x7a, 0x7, 0xb, 0x2, 0x2, 0x78, 0x7b, 0x5, 0x12, 0xa, 0x2, 0x79, 
    0x7b, 0x5, 0x1c, 0xf, 0x2, 0x7a, 0x78, 0x3, 0x2, 0x2, 0x2, 0x7a, 0x79, 
    0x3, 0x2, 0x2, 0x2, 0x7b, 0x7d, 0x3, 0x2, 0x2, 0x2, 0x7c, 0x77, 0x3, 
    0x2, 0x2, 0x2, 0x7c, 0x7d, 0x3, 0x2, 0x2, 0x2, 0x7d, 0x13, 0x3, 0x2, 
    0x2, 0x2, 0x7e, 0x7f, 0x7, 0xc, 0x2, 0x2, 0x7f, 0x82, 0x5, 0x26, 0x14, 
    0x2, 0x80, 0x81, 0x7, 0x24, 0x2, 0x2, 0x81, 0x83, 0x5, 0x26, 0x14, 0x2, 
    0x82, 0x80, 0x3, 0x2, 0x2, 0x2, 0x82, 0x83, 0x3, 0x2, 0x2, 0x2, 0x83, 
    0x15, 0x3, 0x2, 0x2, 0x2, 0x84, 0x85, 0x7, 0x7, 0x2, 0x2, 0x85, 0x86, 
    0x5, 0x20, 0x11, 0x2, 0x86, 0x88, 0x7, 0x22, 0x2, 0x2, 0x87, 0x89, 0x5, 
    0x22, 0x12, 0x2, 0x88, 0x87, 0x3, 0x2, 0x2, 0x2, 0x88, 0x89, 0x3, 0x2, 
    0x2, 0x2, 0x89, 0x8a, 0x3, 0x2, 0x2, 0x2, 0x8a, 0x8b, 0x7, 0x23, 0x2, 
    0x2, 0x8b, 0x17, 0x3, 0x2, 0x2, 0x2, 0x8c, 0x8f, 0x5, 0x30, 0x19, 0x2, 
    0x8d, 0x8f, 0x7, 0x3c, 0x2, 0x2, 0x8e, 0x8c, 0x3, 0x2, 0x2, 0x2, 0x8e, 
    0x8d, 0x3, 0x2, 0x2, 0x2, 0x8f, 0x90, 0x3, 0x2, 0x2, 0x2, 0x90, 0x91, 
    0x7, 0x2f, 0x2, 0x2, 0x91, 0x92, 0x5, 0x26, 0x14, 0x2, 0x92, 0x19, 0x3, 
    0x2, 0x2, 0x2, 0x93, 0x97, 0x5, 0x1e, 0x10, 0x2, 0x94, 0x96, 0x5, 0x2e, 
    0x18, 0x2, 0x95, 0x94, 0x3, 0x2, 0x2, 0x2, 0x96, 0x99, 0x3, 0x2, 0x2, 
    0x2, 0x97, 0x95, 0x3, 0x2, 0x2, 0x2, 0x97, 0x98, 0x3, 0x2, 0x2, 0x2, 
    0x98, 0x9c, 0x3, 0x2, 0x2, 0x2, 0x99, 0x97, 0x3, 0x2, 0x2, 0x2, 0x9a, 
    0x9b, 0x7, 0x9, 0x2, 0x2, 0x9b, 0x9d, 0x5, 0x2e, 0x18, 0x2, 0x9c, 0x9a, 
    0x3, 0x2, 0x2, 0x2, 0x9c, 0x9d, 0x3, 0x2, 0x2, 0x2, 0x9d, 0x9e, 0x3, 
    0x2, 0x2, 0x2, 0x9e, 0x9f, 0x5, 0x1c, 0xf, 0x2, 0x9f, 0x1b, 0x3, 0x2, 
    0x2, 0x2, 0xa0, 0xa4, 0x7, 0x1e, 0x2, 0x2, 0xa1, 0xa3, 0x5, 0x4, 0x3, 
    0x2, 0xa2, 0xa1, 0x3, 0x2, 0x2, 0x2, 0xa3, 0xa6, 0x3, 0x2, 0x2, 0x2, 
    0xa4, 0xa2, 0x3, 0x2, 0x2, 0x2, 0xa4, 0xa5, 0x3, 0x2, 0x2, 0x2, 0xa5, 
    0xa7, 0x3, 0x2, 0x2, 0x2, 0xa6, 0xa4, 0x3, 0x2, 0x2, 0x2, 0xa7, 0xa8, 
    0x7, 0x1f, 0x2, 0x2, 0xa8, 0x1d, 0x3, 0x2, 0x2, 0x2, 0xa9, 0xaa, 0x9, 
    0x3, 0x2, 0x2, 0xaa, 0x1f, 0x3, 0x2, 0x2, 0x2, 0xab, 0xb0, 0x5, 0x30, 
    0x19, 0x2, 0xac, 0xad, 0x7, 0x26, 0x2, 0x2, 0xad, 0xaf, 0x5, 0x30, 0x19, 
    0x2, 0xae, 0xac, 0x3, 0x2, 0x2, 0x2, 0xaf, 0xb2, 0x3, 0x2, 0x2, 0x2, 
    0xb0, 0xae, 0x3, 0x2, 0x2, 0x2, 0xb0, 0xb1, 0x3, 0x2, 0x2, 0x2, 0xb1, 
    0x21, 0x3, 0x2, 0x2, 0x2, 0xb2, 0xb0, 0x3, 0x2, 0x2, 0x2, 0xb3, 0xb8, 
    0x5, 0x24, 0x13, 0x2, 0xb4, 0xb5, 0x7, 0x24, 0x2, 0x2, 0xb5, 0xb7, 0x5, 
    0x24, 0x13, 0x2, 0xb6, 0xb4, 0x3, 0x2, 0x2, 0x2, 0xb7, 0xba, 0x3, 0x2, 
    0x2, 0x2, 0xb8, 0xb6, 0x3, 0x2, 0x2, 0x2, 0xb8, 0xb9, 0x3, 0x2, 0x2, 
    0x2, 0xb9, 0xbc, 0x3, 0x2, 0x2, 0x2, 0xba, 0xb8, 0x3, 0x2, 0x2, 0x2, 
    0xbb, 0xbd, 0x7, 0x24, 0x2, 0x2, 0xbc, 0xbb, 0x3, 0x2, 0x2, 0x2, 0xbc, 
    0xbd, 0x3, 0x2, 0x2, 0x2, 0xbd, 0x23, 0x3, 0x2, 0x2, 0x2, 0xbe, 0xbf, 
    0x5, 0x30, 0x19, 0x2, 0xbf, 0xc0, 0x7, 0x2f, 0x2, 0x2, 0xc0, 0xc2, 0x3, 
    0x2, 0x2, 0x2, 0xc1, 0xbe, 0x3, 0x2, 0x2, 0x2, 0xc1, 0xc2, 0x3, 0x2, 
    0x2, 0x2, 0xc2, 0xc3, 0x3, 0x2, 0x2, 0x2, 0xc3, 0xc4, 0x5, 0x26, 0x14, 
    0x2, 0xc4, 0x25, 0x3, 0x2, 0x2, 0x2, 0xc5, 0xc6, 0x8, 0x14, 0x1, 0x2, 
    0xc6, 0xca, 0x5, 0x28, 0x15, 0x2, 0xc7, 0xc8, 0x9, 0x4, 0x2, 0x2, 0xc8, 
    0xca, 0x5, 0x26, 0x14, 0xb, 0xc9, 0xc5, 0x3, 0x2, 0x2, 0x2, 0xc9, 0xc7, 
    0x3, 0x2, 0x2, 0x2, 0xca, 0xf6, 0x3, 0x2, 0x2, 0x2, 0xcb, 0xcc, 0xc, 
    0xa, 0x2, 0x2, 0xcc, 0xcd, 0x9, 0x5, 0x2, 0x2, 0xcd, 0xf5, 0x5, 0x26, 
    0x14, 0xb, 0xce, 0xcf, 0xc, 0x9, 0x2, 0x2, 0xcf, 0xd0, 0x9, 0x6, 0x2, 
    0x2, 0xd0, 0xf5, 0x5, 0x26, 0x14, 0xa, 0xd1, 0xd2, 0xc, 0x8, 0x2, 0x2, 
    0xd2, 0xd3, 0x9, 0x7, 0x2, 0x2, 0xd3, 0xf5, 0x5, 0x26, 0x14, 0x9, 0xd4, 
    0xd5, 0xc, 0x7, 0x2, 0x2, 0xd5, 0xd6, 0x9, 0x8, 0x2, 0x2, 0xd6, 0xf5, 
    0x5, 0x26, 0x14, 0x8, 0xd7, 0xd8, 0xc, 0x6, 0x2, 0x2, 0xd8, 0xd9, 0x7, 
    0x9, 0x2, 0x2, 0xd9, 0xf5, 0x5, 0x26, 0x14, 0x7, 0xda, 0xdb, 0xc, 0x5, 
    0x2, 0x2, 0xdb, 0xdc, 0x7, 0x35, 0x2, 0x2, 0xdc, 0xf5, 0x5, 0x26, 0x14, 
    0x6, 0xdd, 0xde, 0xc, 0x4, 0x2, 0x2, 0xde, 0xdf, 0x7, 0x36, 0x2, 0x2, 
    0xdf, 0xf5, 0x5, 0x26, 0x14, 0x5, 0xe0, 0xe1, 0xc, 0x3, 0x2, 0x2, 0xe1, 
    0xe2, 0x7, 0x28, 0x2, 0x2, 0xe2, 0xe3, 0x5, 0x26, 0x14, 0x2, 0xe3, 0xe4, 
    0x7, 0x27, 0x2, 0x2, 0xe4, 0xe5, 0x5, 0x26, 0x14, 0x3, 0xe5, 0xf5, 0x3, 
    0x2, 0x2, 0x2, 0xe6, 0xe7, 0xc, 0xe, 0x2, 0x2, 0xe7, 0xe8, 0x7, 0x26, 
    0x2, 0x2, 0xe8, 0xf5, 0x5, 0x30, 0x19, 0x2, 0xe9, 0xea, 0xc, 0xd, 0x2, 
    0x2, 0xea, 0xeb, 0x7, 0x20, 0x2, 0x2, 0xeb, 0xec, 0x5, 0x26, 0x14, 0x2, 
    0xec, 0xed, 0x7, 0x21, 0x2, 0x2, 0xed, 0xf5, 0x3, 0x2, 0x2, 0x2, 0xee, 
    0xef, 0xc, 0xc, 0x2, 0x2, 0xef, 0xf1, 0x7, 0x22, 0x2, 0x2, 0xf0, 0xf2, 
    0x5, 0x22, 0x12, 0x2, 0xf1, 0xf0, 0x3, 0x2, 0x2, 0x2, 0xf1, 0xf2, 0x3, 
    0x2, 0x2, 0x2, 0xf2, 0xf3, 0x3, 0x2, 0x2, 0x2, 0xf3, 0xf5, 0x7, 0x23, 
    0x2, 0x2, 0xf4, 0xcb, 0x3, 0x2, 0x2, 0x2, 0xf4, 0xce, 0x3, 0x2, 0x2, 
    0x2, 0xf4, 0xd1, 0x3, 0x2, 0x2, 0x2, 0xf4, 0xd4, 0x3, 0x2, 0x2, 0x2, 
    0xf4, 0xd7, 0x3, 0x2, 0x2, 0x2, 0xf4, 0xda, 0x3, 0x2, 0x2, 0x2, 0xf4, 
    0xdd, 0x3, 0x2, 0x2, 0x2, 0xf4, 0xe0, 0x3, 0x2, 0x2, 0x2, 0xf4, 0xe6, 
    0x3, 0x2, 0x2, 0x2, 0xf4, 0xe9, 0x3, 0x2, 0x2, 0x2, 0xf4, 0xee, 0x3, 
    0x2, 0x2, 0x2, 0xf5, 0xf8, 0x3, 0x2, 0x2, 0x2, 0xf6, 0xf4, 0x3, 0x2, 
    0x2, 0x2, 0xf6, 0xf7, 0x3, 0x2, 0x2, 0x2, 0xf7, 0x27, 0x3, 0x2, 0x2, 
    0x2, 0xf8, 0xf6, 0x3, 0x2, 0x2, 0x2, 0xf9, 0x128, 0x7, 0x39, 0x2, 0x2, 
    0xfa, 0x128, 0x7, 0x3a, 0x2, 0x2, 0xfb, 0x128, 0x7, 0x38, 0x2, 0x2, 
    0xfc, 0x128, 0x5, 0x2e, 0x18, 0x2, 0xfd, 0x128, 0x7, 0xd, 0x2, 0x2, 
    0xfe, 0x128, 0x7, 0xe, 0x2, 0x2, 0xff, 0x128, 0x7, 0xf, 0x2, 0x2, 0x100, 
    0x128, 0x7, 0x10, 0x2, 0x2, 0x101, 0x128, 0x5, 0x30, 0x19, 0x2, 0x102, 
    0x103, 0x7, 0x22, 0x2, 0x2, 0x103, 0x104, 0x5, 0x26, 0x14, 0x2, 0x104, 
    0x105, 0x7, 0x23, 0x2, 0x2, 0x105, 0x128, 0x3, 0x2, 0x2, 0x2, 0x106, 
    0x115, 0x7, 0x20, 0x2, 0x2, 0x107, 0x113, 0x5, 0x26, 0x14, 0x2, 0x108, 
    0x114, 0x5, 0x2a, 0x16, 0x2, 0x109, 0x10a, 0x7, 0x24, 0x2, 0x2, 0x10a, 
    0x10c, 0x5, 0x26, 0x14, 0x2, 0x10b, 0x109, 0x3, 0x2, 0x2, 0x2, 0x10c, 
    0x10f, 0x3, 0x2, 0x2, 0x2, 0x10d, 0x10b, 0x3, 0x2, 0x2, 0x2, 0x10d, 
    0x10e, 0x3, 0x2, 0x2, 0x2, 0x10e, 0x111, 0x3, 0x2, 0x2, 0x2, 0x10f, 
    0x10d, 0x3, 0x2, 0x2, 0x2, 0x110, 0x112, 0x7, 0x24, 0x2, 0x2, 0x111, 
    0x110, 0x3, 0x2, 0x2, 0x2, 0x111, 0x112, 0x3, 0x2, 0x2, 0x2, 0x112, 
    0x114, 0x3, 0x2, 0x2, 0x2, 0x113, 0x108, 0x3, 0x2, 0x2, 0x2, 0x113, 
    0x10d, 0x3, 0x2, 0x2, 0x2, 0x114, 0x116, 0x3, 0x2, 0x2, 0x2, 0x115, 
    0x107, 0x3, 0x2, 0x2, 0x2, 0x115, 0x116, 0x3, 0x2, 0x2, 0x2, 0x116, 
    0x117, 0x3, 0x2, 0x2, 0x2, 0x117, 0x128, 0x7, 0x21, 0x2, 0x2, 0x118, 
    0x124, 0x7, 0x1e, 0x2, 0x2, 0x119, 0x11e, 0x5, 0x2c, 0x17, 0x2, 0x11a, 
    0x11b, 0x7, 0x24, 0x2, 0x2, 0x11b, 0x11d, 0x5, 0x2c, 0x17, 0x2, 0x11c, 
    0x11a, 0x3, 0x2, 0x2, 0x2, 0x11d, 0x120, 0x3, 0x2, 0x2, 0x2, 0x11e, 
    0x11c, 0x3, 0x2, 0x2, 0x2, 0x11e, 0x11f, 0x3, 0x2, 0x2, 0x2, 0x11f, 
    0x122, 0x3, 0x2, 0x2, 0x2, 0x120, 0x11e, 0x3, 0x2, 0x2, 0x2, 0x121, 
    0x123, 0x7, 0x24, 0x2, 0x2, 0x122, 0x121, 0x3, 0x2, 0x2, 0x2, 0x122, 
    0x123, 0x3, 0x2, 0x2, 0x2, 0x123, 0x125, 0x3, 0x2, 0x2, 0x2, 0x124, 
    0x119, 0x3, 0x2, 0x2, 0x2, 0x124, 0x125, 0x3, 0x2, 0x2, 0x2, 0x125, 
    0x126, 0x3, 0x2, 0x2, 0x2, 0x126, 0x128, 0x7, 0x1f, 0x2, 0x2, 0x127, 
    0xf9, 0x3, 0x2, 0x2, 0x2, 0x127, 0xfa, 0x3, 0x2, 0x2, 0x2, 0x127, 0xfb, 
    0x3, 0x2, 0x2, 0x2, 0x127, 0xfc, 0x3, 0x2, 0x2, 0x2, 0x127, 0xfd, 0x3, 
    0x2, 0x2, 0x2, 0x127, 0xfe, 0x3, 0x2, 0x2, 0x2, 0x127, 0xff, 0x3, 0x2, 
    0x2, 0x2, 0x127, 0x100, 0x3, 0x2, 0x2, 0x2, 0x127, 0x101, 0x3, 0x2, 
    0x2, 0x2, 0x127, 0x102, 0x3, 0x2, 0x2, 0x2, 0x127, 0x106, 0x3, 0x2, 
    0x2, 0x2, 0x127, 0x118, 0x3, 0x2, 0x2, 0x2, 0x128, 0x29, 0x3, 0x2, 0x2, 
    0x2, 0x129, 0x12a, 0x7, 0x8, 0x2, 0x2, 0x12a, 0x12d, 0x5, 0x30, 0x19, 
    0x2, 0x12b, 0x12c, 0x7, 0x24, 0x2, 0x2, 0x12c, 0x12e, 0x5, 0x30, 0x19, 
    0x2, 0x12d, 0x12b, 0x3, 0x2, 0x2, 0x2, 0x12d, 0x12e, 0x3, 0x2, 0x2, 
    0x2, 0x12e, 0x12f, 0x3, 0x2, 0x2, 0x2, 0x12f, 0x130, 0x7, 0x9, 0x2, 
    0x2, 0x130, 0x133, 0x5, 0x26, 0x14, 0x2, 0x131, 0x132, 0x7, 0xa, 0x2, 
    0x2, 0x132, 0x134, 0x5, 0x26, 0x14, 0x2, 0x133, 0x131, 0x3, 0x2, 0x2, 
    0x2, 0x133, 0x134, 0x3, 0x2, 0x2, 0x2, 0x134, 0x2b, 0x3, 0x2, 0x2, 0x2, 
    0x135, 0x138, 0x5, 0x2e, 0x18, 0x2, 0x136, 0x138, 0x5, 0x30, 0x19, 0x2, 
    0x137, 0x135, 0x3, 0x2, 0x2, 0x2, 0x137, 0x136, 0x3, 0x2, 0x2, 0x2, 
    0x138, 0x139, 0x3, 0x2, 0x2, 0x2, 0x139, 0x13a, 0x7, 0x27, 0x2, 0x2, 
    0x13a, 0x13b, 0x5, 0x26, 0x14, 0x2, 0x13b, 0x2d, 0x3, 0x2, 0x2, 0x2, 
    0x13c, 0x13d, 0x9, 0x9, 0x2, 0x2, 0x13d, 0x2f, 0x3, 0x2, 0x2, 0x2, 0x13e, 
    0x13f, 0x9, 0x3, 0x2, 0x2, 0x13f, 0x31, 0x3, 0x2, 0x2, 0x2, 0x25, 0x35, 
    0x44, 0x4a, 0x55, 0x5f, 0x63, 0x68, 0x6e, 0x7a, 0x7c, 0x82, 0x88, 0x8e, 
    0x97, 0x9c, 0xa4, 0xb0, 0xb8, 0xbc, 0xc1, 0xc9, 0xf1, 0xf4, 0xf6, 0x10d, 
    0x111, 0x113, 0x115, 0x11e, 0x122, 0x124, 0x127, 0x12d, 0x133, 0x137, 
  };

  atn::ATNDeserializer deserializer;
  _atn = deserializer.deserialize(_serializedATN);

  size_t count = _atn.getNumberOfDecisions();
  _decisionToDFA.reserve(count);
  for (size_t i = 0; i < count; i++) { 
    _decisionToDFA.emplace_back(_atn.getDecisionState(i), i);
  }
}

MkqParser::Initializer MkqParser::_init;
