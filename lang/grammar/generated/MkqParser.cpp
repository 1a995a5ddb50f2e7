
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

std::vector<tree::TerminalNode *> MkqParser::FileContext::COMMA() {
  return getTokens(MkqParser::COMMA);
}

tree::TerminalNode* MkqParser::FileContext::COMMA(size_t i) {
  return getToken(MkqParser::COMMA, i);
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
    while (_la == MkqParser::COMMA) {
      setState(48);
      match(MkqParser::COMMA);
      setState(53);
      _errHandler->sync(this);
      _la = _input->LA(1);
    }
    setState(57);
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
      | (1ULL << MkqParser::SEP)
      | (1ULL << MkqParser::IDENT)
      | (1ULL << MkqParser::STRING))) != 0)) {
      setState(54);
      stmt();
      setState(59);
      _errHandler->sync(this);
      _la = _input->LA(1);
    }
    setState(60);
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

std::vector<tree::TerminalNode *> MkqParser::StmtContext::COMMA() {
  return getTokens(MkqParser::COMMA);
}

tree::TerminalNode* MkqParser::StmtContext::COMMA(size_t i) {
  return getToken(MkqParser::COMMA, i);
}

MkqParser::AssertStmtContext* MkqParser::StmtContext::assertStmt() {
  return getRuleContext<MkqParser::AssertStmtContext>(0);
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
    setState(80);
    _errHandler->sync(this);
    switch (_input->LA(1)) {
      case MkqParser::IMPORT:
      case MkqParser::LET:
      case MkqParser::TEMPLATE:
      case MkqParser::USE:
      case MkqParser::FOR:
      case MkqParser::IF:
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
      case MkqParser::SEP:
      case MkqParser::IDENT:
      case MkqParser::STRING: {
        enterOuterAlt(_localctx, 1);
        setState(71);
        _errHandler->sync(this);
        switch (getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 2, _ctx)) {
        case 1: {
          setState(62);
          importStmt();
          break;
        }

        case 2: {
          setState(63);
          letStmt();
          break;
        }

        case 3: {
          setState(64);
          templateStmt();
          break;
        }

        case 4: {
          setState(65);
          forStmt();
          break;
        }

        case 5: {
          setState(66);
          ifStmt();
          break;
        }

        case 6: {
          setState(67);
          useStmt();
          break;
        }

        case 7: {
          setState(68);
          attribute();
          break;
        }

        case 8: {
          setState(69);
          block();
          break;
        }

        case 9: {
          setState(70);
          match(MkqParser::SEP);
          break;
        }

        }
        setState(76);
        _errHandler->sync(this);
        _la = _input->LA(1);
        while (_la == MkqParser::COMMA) {
          setState(73);
          match(MkqParser::COMMA);
          setState(78);
          _errHandler->sync(this);
          _la = _input->LA(1);
        }
        break;
      }

      case MkqParser::ASSERT: {
        enterOuterAlt(_localctx, 2);
        setState(79);
        assertStmt();
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
    setState(82);
    match(MkqParser::IMPORT);
    setState(83);
    stringLit();
    setState(86);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::AS) {
      setState(84);
      match(MkqParser::AS);
      setState(85);
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
    setState(88);
    match(MkqParser::LET);
    setState(89);
    ident();
    setState(90);
    match(MkqParser::ASSIGN);
    setState(91);
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
    setState(93);
    match(MkqParser::TEMPLATE);
    setState(94);
    ident();
    setState(95);
    match(MkqParser::LPAREN);
    setState(97);
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
      setState(96);
      params();
    }
    setState(99);
    match(MkqParser::RPAREN);
    setState(100);
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
    setState(102);
    param();
    setState(107);
    _errHandler->sync(this);
    alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 7, _ctx);
    while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
      if (alt == 1) {
        setState(103);
        match(MkqParser::COMMA);
        setState(104);
        param(); 
      }
      setState(109);
      _errHandler->sync(this);
      alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 7, _ctx);
    }
    setState(111);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::COMMA) {
      setState(110);
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
    setState(113);
    ident();
    setState(116);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::ASSIGN) {
      setState(114);
      match(MkqParser::ASSIGN);
      setState(115);
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
    setState(118);
    match(MkqParser::FOR);
    setState(119);
    ident();
    setState(122);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::COMMA) {
      setState(120);
      match(MkqParser::COMMA);
      setState(121);
      ident();
    }
    setState(124);
    match(MkqParser::IN);
    setState(125);
    expr(0);
    setState(126);
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
    setState(128);
    match(MkqParser::IF);
    setState(129);
    expr(0);
    setState(130);
    body();
    setState(136);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::ELSE) {
      setState(131);
      match(MkqParser::ELSE);
      setState(134);
      _errHandler->sync(this);
      switch (_input->LA(1)) {
        case MkqParser::IF: {
          setState(132);
          ifStmt();
          break;
        }

        case MkqParser::LBRACE: {
          setState(133);
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

std::vector<tree::TerminalNode *> MkqParser::AssertStmtContext::COMMA() {
  return getTokens(MkqParser::COMMA);
}

tree::TerminalNode* MkqParser::AssertStmtContext::COMMA(size_t i) {
  return getToken(MkqParser::COMMA, i);
}


size_t MkqParser::AssertStmtContext::getRuleIndex() const {
  return MkqParser::RuleAssertStmt;
}


MkqParser::AssertStmtContext* MkqParser::assertStmt() {
  AssertStmtContext *_localctx = _tracker.createInstance<AssertStmtContext>(_ctx, getState());
  enterRule(_localctx, 18, MkqParser::RuleAssertStmt);
  size_t _la = 0;

  auto onExit = finally([=] {
    exitRule();
  });
  try {
    enterOuterAlt(_localctx, 1);
    setState(138);
    match(MkqParser::ASSERT);
    setState(139);
    expr(0);
    setState(148);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::COMMA) {
      setState(140);
      match(MkqParser::COMMA);
      setState(141);
      expr(0);
      setState(145);
      _errHandler->sync(this);
      _la = _input->LA(1);
      while (_la == MkqParser::COMMA) {
        setState(142);
        match(MkqParser::COMMA);
        setState(147);
        _errHandler->sync(this);
        _la = _input->LA(1);
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
    setState(150);
    match(MkqParser::USE);
    setState(151);
    qualifiedName();
    setState(152);
    match(MkqParser::LPAREN);
    setState(154);
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
      setState(153);
      args();
    }
    setState(156);
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
    setState(160);
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
        setState(158);
        ident();
        break;
      }

      case MkqParser::STRING: {
        setState(159);
        match(MkqParser::STRING);
        break;
      }

    default:
      throw NoViableAltException(this);
    }
    setState(162);
    match(MkqParser::ASSIGN);
    setState(163);
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
    setState(165);
    blockKind();
    setState(169);
    _errHandler->sync(this);
    _la = _input->LA(1);
    while (_la == MkqParser::STRING

    || _la == MkqParser::UNTERMINATED_STRING) {
      setState(166);
      stringLit();
      setState(171);
      _errHandler->sync(this);
      _la = _input->LA(1);
    }
    setState(174);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::IN) {
      setState(172);
      match(MkqParser::IN);
      setState(173);
      stringLit();
    }
    setState(176);
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

std::vector<tree::TerminalNode *> MkqParser::BodyContext::COMMA() {
  return getTokens(MkqParser::COMMA);
}

tree::TerminalNode* MkqParser::BodyContext::COMMA(size_t i) {
  return getToken(MkqParser::COMMA, i);
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
    setState(178);
    match(MkqParser::LBRACE);
    setState(182);
    _errHandler->sync(this);
    _la = _input->LA(1);
    while (_la == MkqParser::COMMA) {
      setState(179);
      match(MkqParser::COMMA);
      setState(184);
      _errHandler->sync(this);
      _la = _input->LA(1);
    }
    setState(188);
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
      | (1ULL << MkqParser::SEP)
      | (1ULL << MkqParser::IDENT)
      | (1ULL << MkqParser::STRING))) != 0)) {
      setState(185);
      stmt();
      setState(190);
      _errHandler->sync(this);
      _la = _input->LA(1);
    }
    setState(191);
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
    setState(193);
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
    setState(195);
    ident();
    setState(200);
    _errHandler->sync(this);
    _la = _input->LA(1);
    while (_la == MkqParser::DOT) {
      setState(196);
      match(MkqParser::DOT);
      setState(197);
      ident();
      setState(202);
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
    setState(203);
    arg();
    setState(208);
    _errHandler->sync(this);
    alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 22, _ctx);
    while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
      if (alt == 1) {
        setState(204);
        match(MkqParser::COMMA);
        setState(205);
        arg(); 
      }
      setState(210);
      _errHandler->sync(this);
      alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 22, _ctx);
    }
    setState(212);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::COMMA) {
      setState(211);
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
    setState(217);
    _errHandler->sync(this);

    switch (getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 24, _ctx)) {
    case 1: {
      setState(214);
      ident();
      setState(215);
      match(MkqParser::ASSIGN);
      break;
    }

    }
    setState(219);
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
    setState(225);
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

        setState(222);
        primary();
        break;
      }

      case MkqParser::MINUS:
      case MkqParser::NOT: {
        _localctx = _tracker.createInstance<UnaryExprContext>(_localctx);
        _ctx = _localctx;
        previousContext = _localctx;
        setState(223);
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
        setState(224);
        expr(9);
        break;
      }

    default:
      throw NoViableAltException(this);
    }
    _ctx->stop = _input->LT(-1);
    setState(270);
    _errHandler->sync(this);
    alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 28, _ctx);
    while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
      if (alt == 1) {
        if (!_parseListeners.empty())
          triggerExitRuleEvent();
        previousContext = _localctx;
        setState(268);
        _errHandler->sync(this);
        switch (getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 27, _ctx)) {
        case 1: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(227);

          if (!(precpred(_ctx, 8))) throw FailedPredicateException(this, "precpred(_ctx, 8)");
          setState(228);
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
          setState(229);
          expr(9);
          break;
        }

        case 2: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(230);

          if (!(precpred(_ctx, 7))) throw FailedPredicateException(this, "precpred(_ctx, 7)");
          setState(231);
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
          setState(232);
          expr(8);
          break;
        }

        case 3: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(233);

          if (!(precpred(_ctx, 6))) throw FailedPredicateException(this, "precpred(_ctx, 6)");
          setState(234);
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
          setState(235);
          expr(7);
          break;
        }

        case 4: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(236);

          if (!(precpred(_ctx, 5))) throw FailedPredicateException(this, "precpred(_ctx, 5)");
          setState(237);
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
          setState(238);
          expr(6);
          break;
        }

        case 5: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(239);

          if (!(precpred(_ctx, 4))) throw FailedPredicateException(this, "precpred(_ctx, 4)");
          setState(240);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = match(MkqParser::IN);
          setState(241);
          expr(5);
          break;
        }

        case 6: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(242);

          if (!(precpred(_ctx, 3))) throw FailedPredicateException(this, "precpred(_ctx, 3)");
          setState(243);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = match(MkqParser::AND);
          setState(244);
          expr(4);
          break;
        }

        case 7: {
          auto newContext = _tracker.createInstance<BinaryExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(245);

          if (!(precpred(_ctx, 2))) throw FailedPredicateException(this, "precpred(_ctx, 2)");
          setState(246);
          dynamic_cast<BinaryExprContext *>(_localctx)->op = match(MkqParser::OR);
          setState(247);
          expr(3);
          break;
        }

        case 8: {
          auto newContext = _tracker.createInstance<ConditionalExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(248);

          if (!(precpred(_ctx, 1))) throw FailedPredicateException(this, "precpred(_ctx, 1)");
          setState(249);
          match(MkqParser::QUESTION);
          setState(250);
          expr(0);
          setState(251);
          match(MkqParser::COLON);
          setState(252);
          expr(1);
          break;
        }

        case 9: {
          auto newContext = _tracker.createInstance<FieldExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(254);

          if (!(precpred(_ctx, 12))) throw FailedPredicateException(this, "precpred(_ctx, 12)");
          setState(255);
          match(MkqParser::DOT);
          setState(256);
          ident();
          break;
        }

        case 10: {
          auto newContext = _tracker.createInstance<IndexExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(257);

          if (!(precpred(_ctx, 11))) throw FailedPredicateException(this, "precpred(_ctx, 11)");
          setState(258);
          match(MkqParser::LBRACK);
          setState(259);
          expr(0);
          setState(260);
          match(MkqParser::RBRACK);
          break;
        }

        case 11: {
          auto newContext = _tracker.createInstance<CallExprContext>(_tracker.createInstance<ExprContext>(parentContext, parentState));
          _localctx = newContext;
          pushNewRecursionContext(newContext, startState, RuleExpr);
          setState(262);

          if (!(precpred(_ctx, 10))) throw FailedPredicateException(this, "precpred(_ctx, 10)");
          setState(263);
          match(MkqParser::LPAREN);
          setState(265);
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
            setState(264);
            args();
          }
          setState(267);
          match(MkqParser::RPAREN);
          break;
        }

        } 
      }
      setState(272);
      _errHandler->sync(this);
      alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 28, _ctx);
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
    setState(319);
    _errHandler->sync(this);
    switch (_input->LA(1)) {
      case MkqParser::NUMBER: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::NumberLitContext>(_localctx));
        enterOuterAlt(_localctx, 1);
        setState(273);
        match(MkqParser::NUMBER);
        break;
      }

      case MkqParser::BAD_NUMBER: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::BadNumberLitContext>(_localctx));
        enterOuterAlt(_localctx, 2);
        setState(274);
        match(MkqParser::BAD_NUMBER);
        break;
      }

      case MkqParser::DURATION: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::DurationLitContext>(_localctx));
        enterOuterAlt(_localctx, 3);
        setState(275);
        match(MkqParser::DURATION);
        break;
      }

      case MkqParser::STRING:
      case MkqParser::UNTERMINATED_STRING: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::StringExprContext>(_localctx));
        enterOuterAlt(_localctx, 4);
        setState(276);
        stringLit();
        break;
      }

      case MkqParser::TRUE: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::TrueLitContext>(_localctx));
        enterOuterAlt(_localctx, 5);
        setState(277);
        match(MkqParser::TRUE);
        break;
      }

      case MkqParser::FALSE: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::FalseLitContext>(_localctx));
        enterOuterAlt(_localctx, 6);
        setState(278);
        match(MkqParser::FALSE);
        break;
      }

      case MkqParser::NULL_LIT: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::NullLitContext>(_localctx));
        enterOuterAlt(_localctx, 7);
        setState(279);
        match(MkqParser::NULL_LIT);
        break;
      }

      case MkqParser::ALL: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::AllLitContext>(_localctx));
        enterOuterAlt(_localctx, 8);
        setState(280);
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
        setState(281);
        ident();
        break;
      }

      case MkqParser::LPAREN: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::ParenExprContext>(_localctx));
        enterOuterAlt(_localctx, 10);
        setState(282);
        match(MkqParser::LPAREN);
        setState(283);
        expr(0);
        setState(284);
        match(MkqParser::RPAREN);
        break;
      }

      case MkqParser::LBRACK: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::ListLitContext>(_localctx));
        enterOuterAlt(_localctx, 11);
        setState(286);
        match(MkqParser::LBRACK);
        setState(301);
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
          setState(287);
          expr(0);
          setState(299);
          _errHandler->sync(this);
          switch (_input->LA(1)) {
            case MkqParser::FOR: {
              setState(288);
              comprehensionTail();
              break;
            }

            case MkqParser::RBRACK:
            case MkqParser::COMMA: {
              setState(293);
              _errHandler->sync(this);
              alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 29, _ctx);
              while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
                if (alt == 1) {
                  setState(289);
                  match(MkqParser::COMMA);
                  setState(290);
                  expr(0); 
                }
                setState(295);
                _errHandler->sync(this);
                alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 29, _ctx);
              }
              setState(297);
              _errHandler->sync(this);

              _la = _input->LA(1);
              if (_la == MkqParser::COMMA) {
                setState(296);
                match(MkqParser::COMMA);
              }
              break;
            }

          default:
            throw NoViableAltException(this);
          }
        }
        setState(303);
        match(MkqParser::RBRACK);
        break;
      }

      case MkqParser::LBRACE: {
        _localctx = dynamic_cast<PrimaryContext *>(_tracker.createInstance<MkqParser::MapLitContext>(_localctx));
        enterOuterAlt(_localctx, 12);
        setState(304);
        match(MkqParser::LBRACE);
        setState(316);
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
          setState(305);
          mapEntry();
          setState(310);
          _errHandler->sync(this);
          alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 33, _ctx);
          while (alt != 2 && alt != atn::ATN::INVALID_ALT_NUMBER) {
            if (alt == 1) {
              setState(306);
              match(MkqParser::COMMA);
              setState(307);
              mapEntry(); 
            }
            setState(312);
            _errHandler->sync(this);
            alt = getInterpreter<atn::ParserATNSimulator>()->adaptivePredict(_input, 33, _ctx);
          }
          setState(314);
          _errHandler->sync(this);

          _la = _input->LA(1);
          if (_la == MkqParser::COMMA) {
            setState(313);
            match(MkqParser::COMMA);
          }
        }
        setState(318);
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
    setState(321);
    match(MkqParser::FOR);
    setState(322);
    ident();
    setState(325);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::COMMA) {
      setState(323);
      match(MkqParser::COMMA);
      setState(324);
      ident();
    }
    setState(327);
    match(MkqParser::IN);
    setState(328);
    expr(0);
    setState(331);
    _errHandler->sync(this);

    _la = _input->LA(1);
    if (_la == MkqParser::IF) {
      setState(329);
      match(MkqParser::IF);
      setState(330);
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
    setState(335);
    _errHandler->sync(this);
    switch (_input->LA(1)) {
      case MkqParser::STRING:
      case MkqParser::UNTERMINATED_STRING: {
        setState(333);
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
        setState(334);
        ident();
        break;
      }

    default:
      throw NoViableAltException(this);
    }
    setState(337);
    match(MkqParser::COLON);
    setState(338);
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
    setState(340);
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
    setState(342);
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
    0x3, 0x42, 0x15b, 0x4, 0x2, 0x9, 0x2, 0x4, 0x3, 0x9, 0x3, 0x4, 0x4, 
    0x9, 0x4, 0x4, 0x5, 0x9, 0x5, 0x4, 0x6, 0x9, 0x6, 0x4, 0x7, 0x9, 0x7, 
    0x4, 0x8, 0x9, 0x8, 0x4, 0x9, 0x9, 0x9, 0x4, 0xa, 0x9, 0xa, 0x4, 0xb, 
    0x9, 0xb, 0x4, 0xc, 0x9, 0xc, 0x4, 0xd, 0x9, 0xd, 0x4, 0xe, 0x9, 0xe, 
    0x4, 0xf, 0x9, 0xf, 0x4, 0x10, 0x9, 0x10, 0x4, 0x11, 0x9, 0x11, 0x4, 
    0x12, 0x9, 0x12, 0x4, 0x13, 0x9, 0x13, 0x4, 0x14, 0x9, 0x14, 0x4, 0x15, 
    0x9, 0x15, 0x4, 0x16, 0x9, 0x16, 0x4, 0x17, 0x9, 0x17, 0x4, 0x18, 0x9, 
    0x18, 0x4, 0x19, 0x9, 0x19, 0x3, 0x2, 0x7, 0x2, 0x34, 0xa, 0x2, 0xc, 
    0x2, 0xe, 0x2, 0x37, 0xb, 0x2, 0x3, 0x2, 0x7, 0x2, 0x3a, 0xa, 0x2, 0xc, 
    0x2, 0xe, 0x2, 0x3d, 0xb, 0x2, 0x3, 0x2, 0x3, 0x2, 0x3, 0x3, 0x3, 0x3, 
    0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 
    0x5, 0x3, 0x4a, 0xa, 0x3, 0x3, 0x3, 0x7, 0x3, 0x4d, 0xa, 0x3, 0xc, 0x3, 
    0xe, 0x3, 0x50, 0xb, 0x3, 0x3, 0x3, 0x5, 0x3, 0x53, 0xa, 0x3, 0x3, 0x4, 
    0x3, 0x4, 0x3, 0x4, 0x3, 0x4, 0x5, 0x4, 0x59, 0xa, 0x4, 0x3, 0x5, 0x3, 
    0x5, 0x3, 0x5, 0x3, 0x5, 0x3, 0x5, 0x3, 0x6, 0x3, 0x6, 0x3, 0x6, 0x3, 
    0x6, 0x5, 0x6, 0x64, 0xa, 0x6, 0x3, 0x6, 0x3, 0x6, 0x3, 0x6, 0x3, 0x7, 
    0x3, 0x7, 0x3, 0x7, 0x7, 0x7, 0x6c, 0xa, 0x7, 0xc, 0x7, 0xe, 0x7, 0x6f, 
    0xb, 0x7, 0x3, 0x7, 0x5, 0x7, 0x72, 0xa, 0x7, 0x3, 0x8, 0x3, 0x8, 0x3, 
    0x8, 0x5, 0x8, 0x77, 0xa, 0x8, 0x3, 0x9, 0x3, 0x9, 0x3, 0x9, 0x3, 0x9, 
    0x5, 0x9, 0x7d, 0xa, 0x9, 0x3, 0x9, 0x3, 0x9, 0x3, 0x9, 0x3, 0x9, 0x3, 
    0xa, 0x3, 0xa, 0x3, 0xa, 0x3, 0xa, 0x3, 0xa, 0x3, 0xa, 0x5, 0xa, 0x89, 
    0xa, 0xa, 0x5, 0xa, 0x8b, 0xa, 0xa, 0x3, 0xb, 0x3, 0xb, 0x3, 0xb, 0x3, 
    0xb, 0x3, 0xb, 0x7, 0xb, 0x92, 0xa, 0xb, 0xc, 0xb, 0xe, 0xb, 0x95, 0xb, 
    0xb, 0x5, 0xb, 0x97, 0xa, 0xb, 0x3, 0xc, 0x3, 0xc, 0x3, 0xc, 0x3, 0xc, 
    0x5, 0xc, 0x9d, 0xa, 0xc, 0x3, 0xc, 0x3, 0xc, 0x3, 0xd, 0x3, 0xd, 0x5, 
    0xd, 0xa3, 0xa, 0xd, 0x3, 0xd, 0x3, 0xd, 0x3, 0xd, 0x3, 0xe, 0x3, 0xe, 
    0x7, 0xe, 0xaa, 0xa, 0xe, 0xc, 0xe, 0xe, 0xe, 0xad, 0xb, 0xe, 0x3, 0xe, 
    0x3, 0xe, 0x5, 0xe, 0xb1, 0xa, 0xe, 0x3, 0xe, 0x3, 0xe, 0x3, 0xf, 0x3, 
    0xf, 0x7, 0xf, 0xb7, 0xa, 0xf, 0xc, 0xf, 0xe, 0xf, 0xba, 0xb, 0xf, 0x3, 
    0xf, 0x7, 0xf, 0xbd, 0xa, 0xf, 0xc, 0xf, 0xe, 0xf, 0xc0, 0xb, 0xf, 0x3, 
    0xf, 0x3, 0xf, 0x3, 0x10, 0x3, 0x10, 0x3, 0x11, 0x3, 0x11, 0x3, 0x11, 
    0x7, 0x11, 0xc9, 0xa, 0x11, 0xc, 0x11, 0xe, 0x11, 0xcc, 0xb, 0x11, 0x3, 
    0x12, 0x3, 0x12, 0x3, 0x12, 0x7, 0x12, 0xd1, 0xa, 0x12, 0xc, 0x12, 0xe, 
    0x12, 0xd4, 0xb, 0x12, 0x3, 0x12, 0x5, 0x12, 0xd7, 0xa, 0x12, 0x3, 0x13, 
    0x3, 0x13, 0x3, 0x13, 0x5, 0x13, 0xdc, 0xa, 0x13, 0x3, 0x13, 0x3, 0x13, 
    0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x5, 0x14, 0xe4, 0xa, 0x14, 
    0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 
    0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 
    0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 
    0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 
    0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 
    0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x3, 0x14, 0x5, 0x14, 
    0x10c, 0xa, 0x14, 0x3, 0x14, 0x7, 0x14, 0x10f, 0xa, 0x14, 0xc, 0x14, 
    0xe, 0x14, 0x112, 0xb, 0x14, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 
    0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 
    0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 
    0x3, 0x15, 0x7, 0x15, 0x126, 0xa, 0x15, 0xc, 0x15, 0xe, 0x15, 0x129, 
    0xb, 0x15, 0x3, 0x15, 0x5, 0x15, 0x12c, 0xa, 0x15, 0x5, 0x15, 0x12e, 
    0xa, 0x15, 0x5, 0x15, 0x130, 0xa, 0x15, 0x3, 0x15, 0x3, 0x15, 0x3, 0x15, 
    0x3, 0x15, 0x3, 0x15, 0x7, 0x15, 0x137, 0xa, 0x15, 0xc, 0x15, 0xe, 0x15, 
    0x13a, 0xb, 0x15, 0x3, 0x15, 0x5, 0x15, 0x13d, 0xa, 0x15, 0x5, 0x15, 
    0x13f, 0xa, 0x15, 0x3, 0x15, 0x5, 0x15, 0x142, 0xa, 0x15, 0x3, 0x16, 
    0x3, 0x16, 0x3, 0x16, 0x3, 0x16, 0x5, 0x16, 0x148, 0xa, 0x16, 0x3, 0x16, 
    0x3, 0x16, 0x3, 0x16, 0x3, 0x16, 0x5, 0x16, 0x14e, 0xa, 0x16, 0x3, 0x17, 
    0x3, 0x17, 0x5, 0x17, 0x152, 0xa, 0x17, 0x3, 0x17, 0x3, 0x17, 0x3, 0x17, 
    0x3, 0x18, 0x3, 0x18, 0x3, 0x19, 0x3, 0x19, 0x3, 0x19, 0x2, 0x3, 0x26, 
    0x1a, 0x2, 0x4, 0x6, 0x8, 0xa, 0xc, 0xe, 0x10, 0x12, 0x14, 0x16, 0x18, 
    0x1a, 0x1c, 0x1e, 0x20, 0x22, 0x24, 0x26, 0x28, 0x2a, 0x2c, 0x2e, 0x30, 
    0x2, 0x9, 0x4, 0x2, 0x11, 0x1d, 0x3b, 0x3b, 0x4, 0x2, 0x31, 0x31, 0x37, 
    0x37, 0x3, 0x2, 0x32, 0x34, 0x3, 0x2, 0x30, 0x31, 0x3, 0x2, 0x2b, 0x2e, 
    0x3, 0x2, 0x29, 0x2a, 0x3, 0x2, 0x3c, 0x3d, 0x2, 0x184, 0x2, 0x35, 0x3, 
    0x2, 0x2, 0x2, 0x4, 0x52, 0x3, 0x2, 0x2, 0x2, 0x6, 0x54, 0x3, 0x2, 0x2, 
    0x2, 0x8, 0x5a, 0x3, 0x2, 0x2, 0x2, 0xa, 0x5f, 0x3, 0x2, 0x2, 0x2, 0xc, 
    0x68, 0x3, 0x2, 0x2, 0x2, 0xe, 0x73, 0x3, 0x2, 0x2, 0x2, 0x10, 0x78, 
    0x3, 0x2, 0x2, 0x2, 0x12, 0x82, 0x3, 0x2, 0x2, 0x2, 0x14, 0x8c, 0x3, 
    0x2, 0x2, 0x2, 0x16, 0x98, 0x3, 0x2, 0x2, 0x2, 0x18, 0xa2, 0x3, 0x2, 
    0x2, 0x2, 0x1a, 0xa7, 0x3, 0x2, 0x2, 0x2, 0x1c, 0xb4, 0x3, 0x2, 0x2, 
    0x2, 0x1e, 0xc3, 0x3, 0x2, 0x2, 0x2, 0x20, 0xc5, 0x3, 0x2, 0x2, 0x2, 
    0x22, 0xcd, 0x3, 0x2, 0x2, 0x2, 0x24, 0xdb, 0x3, 0x2, 0x2, 0x2, 0x26, 
    0xe3, 0x3, 0x2, 0x2, 0x2, 0x28, 0x141, 0x3, 0x2, 0x2, 0x2, 0x2a, 0x143, 
    0x3, 0x2, 0x2, 0x2, 0x2c, 0x151, 0x3, 0x2, 0x2, 0x2, 0x2e, 0x156, 0x3, 
    0x2, 0x2, 0x2, 0x30, 0x158, 0x3, 0x2, 0x2, 0x2, 0x32, 0x34, 0x7, 0x24, 
    0x2, 0x2, 0x33, 0x32, 0x3, 0x2, 0x2, 0x2, 0x34, 0x37, 0x3, 0x2, 0x2, 
    0x2, 0x35, 0x33, 0x3, 0x2, 0x2, 0x2, 0x35, 0x36, 0x3, 0x2, 0x2, 0x2, 
    0x36, 0x3b, 0x3, 0x2, 0x2, 0x2, 0x37, 0x35, 0x3, 0x2, 0x2, 0x2, 0x38, 
    0x3a, 0x5, 0x4, 0x3, 0x2, 0x39, 0x38, 0x3, 0x2, 0x2, 0x2, 0x3a, 0x3d, 
    0x3, 0x2, 0x2, 0x2, 0x3b, 0x39, 0x3, 0x2, 0x2, 0x2, 0x3b, 0x3c, 0x3, 
    0x2, 0x2, 0x2, 0x3c, 0x3e, 0x3, 0x2, 0x2, 0x2, 0x3d, 0x3b, 0x3, 0x2, 
    0x2, 0x2, 0x3e, 0x3f, 0x7, 0x2, 0x2, 0x3, 0x3f, 0x3, 0x3, 0x2, 0x2, 
    0x2, 0x40, 0x4a, 0x5, 0x6, 0x4, 0x2, 0x41, 0x4a, 0x5, 0x8, 0x5, 0x2, 
    0x42, 0x4a, 0x5, 0xa, 0x6, 0x2, 0x43, 0x4a, 0x5, 0x10, 0x9, 0x2, 0x44, 
    0x4a, 0x5, 0x12, 0xa, 0x2, 0x45, 0x4a, 0x5, 0x16, 0xc, 0x2, 0x46, 0x4a, 
    0x5, 0x18, 0xd, 0x2, 0x47, 0x4a, 0x5, 0x1a, 0xe, 0x2, 0x48, 0x4a, 0x7, 
    0x25, 0x2, 0x2, 0x49, 0x40, 0x3, 0x2, 0x2, 0x2, 0x49, 0x41, 0x3, 0x2, 
    0x2, 0x2, 0x49, 0x42, 0x3, 0x2, 0x2, 0x2, 0x49, 0x43, 0x3, 0x2, 0x2, 
    0x2, 0x49, 0x44, 0x3, 0x2, 0x2, 0x2, 0x49, 0x45, 0x3, 0x2, 0x2, 0x2, 
    0x49, 0x46, 0x3, 0x2, 0x2, 0x2, 0x49, 0x47, 0x3, 0x2, 0x2, 0x2, 0x49, 
    0x48, 0x3, 0x2, 0x2, 0x2, 0x4a, 0x4e, 0x3, 0x2, 0x2, 0x2, 0x4b, 0x4d, 
    0x7, 0x24, 0x2, 0x2, 0x4c, 0x4b, 0x3, 0x2, 0x2, 0x2, 0x4d, 0x50, 0x3, 
    0x2, 0x2, 0x2, 0x4e, 0x4c, 0x3, 0x2, 0x2, 0x2, 0x4e, 0x4f, 0x3, 0x2, 
    0x2, 0x2, 0x4f, 0x53, 0x3, 0x2, 0x2, 0x2, 0x50, 0x4e, 0x3, 0x2, 0x2, 
    0x2, 0x51, 0x53, 0x5, 0x14, 0xb, 0x2, 0x52, 0x49, 0x3, 0x2, 0x2, 0x2, 
    0x52, 0x51, 0x3, 0x2, 0x2, 0x2, 0x53, 0x5, 0x3, 0x2, 0x2, 0x2, 0x54, 
    0x55, 0x7, 0x3, 0x2, 0x2, 0x55, 0x58, 0x5, 0x2e, 0x18, 0x2, 0x56, 0x57, 
    0x7, 0x4, 0x2, 0x2, 0x57, 0x59, 0x5, 0x30, 0x19, 0x2, 0x58, 0x56, 0x3, 
    0x2, 0x2, 0x2, 0x58, 0x59, 0x3, 0x2, 0x2, 0x2, 0x59, 0x7, 0x3, 0x2, 
    0x2, 0x2, 0x5a, 0x5b, 0x7, 0x5, 0x2, 0x2, 0x5b, 0x5c, 0x5, 0x30, 0x19, 
    0x2, 0x5c, 0x5d, 0x7, 0x2f, 0x2, 0x2, 0x5d, 0x5e, 0x5, 0x26, 0x14, 0x2, 
    0x5e, 0x9, 0x3, 0x2, 0x2, 0x2, 0x5f, 0x60, 0x7, 0x6, 0x2, 0x2, 0x60, 
    0x61, 0x5, 0x30, 0x19, 0x2, 0x61, 0x63, 0x7, 0x22, 0x2, 0x2, 0x62, 0x64, 
    0x5, 0xc, 0x7, 0x2, 0x63, 0x62, 0x3, 0x2, 0x2, 0x2, 0x63, 0x64, 0x3, 
    0x2, 0x2, 0x2, 0x64, 0x65, 0x3, 0x2, 0x2, 0x2, 0x65, 0x66, 0x7, 0x23, 
    0x2, 0x2, 0x66, 0x67, 0x5, 0x1c, 0xf, 0x2, 0x67, 0xb, 0x3, 0x2, 0x2, 
    0x2, 0x68, 0x6d, 0x5, 0xe, 0x8, 0x2, 0x69, 0x6a, 0x7, 0x24, 0x2, 0x2, 
    0x6a, 0x6c, 0x5, 0xe, 0x8, 0x2, 0x6b, 0x69, 0x3, 0x2, 0x2, 0x2, 0x6c, 
    0x6f, 0x3, 0x2, 0x2, 0x2, 0x6d, 0x6b, 0x3, 0x2, 0x2, 0x2, 0x6d, 0x6e, 
    0x3, 0x2, 0x2, 0x2, 0x6e, 0x71, 0x3, 0x2, 0x2, 0x2, 0x6f, 0x6d, 0x3, 
    0x2, 0x2, 0x2, 0x70, 0x72, 0x7, 0x24, 0x2, 0x2, 0x71, 0x70, 0x3, 0x2, 
    0x2, 0x2, 0x71, 0x72, 0x3, 0x2, 0x2, 0x2, 0x72, 0xd, 0x3, 0x2, 0x2, 
    0x2, 0x73, 0x76, 0x5, 0x30, 0x19, 0x2, 0x74, 0x75, 0x7, 0x2f, 0x2, 0x2, 
    0x75, 0x77, 0x5, 0x26, 0x14, 0x2, 0x76, 0x74, 0x3, 0x2, 0x2, 0x2, 0x76, 
    0x77, 0x3, 0x2, 0x2, 0x2, 0x77, 0xf, 0x3, 0x2, 0x2, 0x2, 0x78, 0x79, 
    0x7, 0x8, 0x2, 0x2, 0x79, 0x7c, 0x5, 0x30, 0x19, 0x2, 0x7a, 0x7b, 0x7, 
    0x24, 0x2, 0x2, 0x7b, 0x7d, 0x5, 0x30, 0x19, 0x2, 0x7c, 0x7a, 0x3, 0x2, 
    0x2, 0x2, 0x7c, 0x7d, 0x3, 0x2, 0x2, 0x2, 0x7d, 0x7e, 0x3, 0x2, 0x2, 
    0x2, 0x7e, 0x7f, 0x7, 0x9, 0x2, 0x2, 0x7f, 0x80, 0x5, 0x26, 0x14, 0x2, 
    0x80, 0x81, 0x5, 0x1c, 0xf, 0x2, 0x81, 0x11, 0x3, 0x2, 0x2, 0x2, 0x82, 
    0x83, 0x7, 0xa, 0x2, 0x2, 0x83, 0x84, 0x5, 0x26, 0x14, 0x2, 0x84, 0x8a, 
    0x5, 0x1c, 0xf, 0x2, 0x85, 0x88, 0x7, 0xb, 0x2, 0x2, 0x86, 0x89, 0x5, 
    0x12, 0xa, 0x2, 0x87, 0x89, 0x5, 0x1c, 0xf, 0x2, 0x88, 0x86, 0x3, 0x2, 
    0x2, 0x2, 0x88, 0x87, 0x3, 0x2, 0x2, 0x2, 0x89, 0x8b, 0x3, 0x2, 0x2, 
    0x2, 0x8a, 0x85, 0x3, 0x2, 0x2, 0x2, 0x8a, 0x8b, 0x3, 0x2, 0x2, 0x2, 
    0x8b, 0x13, 0x3, 0x2, 0x2, 0x2, 0x8c, 0x8d, 0x7, 0xc, 0x2, 0x2, 0x8d, 
    0x96, 0x5, 0x26, 0x14, 0x2, 0x8e, 0x8f, 0x7, 0x24, 0x2, 0x2, 0x8f, 0x93, 
    0x5, 0x26, 0x14, 0x2, 0x90, 0x92, 0x7, 0x24, 0x2, 0x2, 0x91, 0x90, 0x3, 
    0x2, 0x2, 0x2, 0x92, 0x95, 0x3, 0x2, 0x2, 0x2, 0x93, 0x91, 0x3, 0x2, 
    0x2, 0x2, 0x93, 0x94, 0x3, 0x2, 0x2, 0x2, 0x94, 0x97, 0x3, 0x2, 0x2, 
    0x2, 0x95, 0x93, 0x3, 0x2, 0x2, 0x2, 0x96, 0x8e, 0x3, 0x2, 0x2, 0x2, 
    0x96, 0x97, 0x3, 0x2, 0x2, 0x2, 0x97, 0x15, 0x3, 0x2, 0x2, 0x2, 0x98, 
    0x99, 0x7, 0x7, 0x2, 0x2, 0x99, 0x9a, 0x5, 0x20, 0x11, 0x2, 0x9a, 0x9c, 
    0x7, 0x22, 0x2, 0x2, 0x9b, 0x9d, 0x5, 0x22, 0x12, 0x2, 0x9c, 0x9b, 0x3, 
    0x2, 0x2, 0x2, 0x9c, 0x9d, 0x3, 0x2, 0x2, 0x2, 0x9d, 0x9e, 0x3, 0x2, 
    0x2, 0x2, 0x9e, 0x9f, 0x7, 0x23, 0x2, 0x2, 0x9f, 0x17, 0x3, 0x2, 0x2, 
    0x2, 0xa0, 0xa3, 0x5, 0x30, 0x19, 0x2, 0xa1, 0xa3, 0x7, 0x3c, 0x2, 0x2, 
    0xa2, 0xa0, 0x3, 0x2, 0x2, 0x2, 0xa2, 0xa1, 0x3, 0x2, 0x2, 0x2, 0xa3, 
    0xa4, 0x3, 0x2, 0x2, 0x2, 0xa4, 0xa5, 0x7, 0x2f, 0x2, 0x2, 0xa5, 0xa6, 
    0x5, 0x26, 0x14, 0x2, 0xa6, 0x19, 0x3, 0x2, 0x2, 0x2, 0xa7, 0xab, 0x5, 
    0x1e, 0x10, 0x2, 0xa8, 0xaa, 0x5, 0x2e, 0x18, 0x2, 0xa9, 0xa8, 0x3, 
    0x2, 0x2, 0x2, 0xaa, 0xad, 0x3, 0x2, 0x2, 0x2, 0xab, 0xa9, 0x3, 0x2, 
    0x2, 0x2, 0xab, 0xac, 0x3, 0x2, 0x2, 0x2, 0xac, 0xb0, 0x3, 0x2, 0x2, 
    0x2, 0xad, 0xab, 0x3, 0x2, 0x2, 0x2, 0xae, 0xaf, 0x7, 0x9, 0x2, 0x2, 
    0xaf, 0xb1, 0x5, 0x2e, 0x18, 0x2, 0xb0, 0xae, 0x3, 0x2, 0x2, 0x2, 0xb0, 
    0xb1, 0x3, 0x2, 0x2, 0x2, 0xb1, 0xb2, 0x3, 0x2, 0x2, 0x2, 0xb2, 0xb3, 
    0x5, 0x1c, 0xf, 0x2, 0xb3, 0x1b, 0x3, 0x2, 0x2, 0x2, 0xb4, 0xb8, 0x7, 
    0x1e, 0x2, 0x2, 0xb5, 0xb7, 0x7, 0x24, 0x2, 0x2, 0xb6, 0xb5, 0x3, 0x2, 
    0x2, 0x2, 0xb7, 0xba, 0x3, 0x2, 0x2, 0x2, 0xb8, 0xb6, 0x3, 0x2, 0x2, 
    0x2, 0xb8, 0xb9, 0x3, 0x2, 0x2, 0x2, 0xb9, 0xbe, 0x3, 0x2, 0x2, 0x2, 
    0xba, 0xb8, 0x3, 0x2, 0x2, 0x2, 0xbb, 0xbd, 0x5, 0x4, 0x3, 0x2, 0xbc, 
    0xbb, 0x3, 0x2, 0x2, 0x2, 0xbd, 0xc0, 0x3, 0x2, 0x2, 0x2, 0xbe, 0xbc, 
    0x3, 0x2, 0x2, 0x2, 0xbe, 0xbf, 0x3, 0x2, 0x2, 0x2, 0xbf, 0xc1, 0x3, 
    0x2, 0x2, 0x2, 0xc0, 0xbe, 0x3, 0x2, 0x2, 0x2, 0xc1, 0xc2, 0x7, 0x1f, 
    0x2, 0x2, 0xc2, 0x1d, 0x3, 0x2, 0x2, 0x2, 0xc3, 0xc4, 0x9, 0x2, 0x2, 
    0x2, 0xc4, 0x1f, 0x3, 0x2, 0x2, 0x2, 0xc5, 0xca, 0x5, 0x30, 0x19, 0x2, 
    0xc6, 0xc7, 0x7, 0x26, 0x2, 0x2, 0xc7, 0xc9, 0x5, 0x30, 0x19, 0x2, 0xc8, 
    0xc6, 0x3, 0x2, 0x2, 0x2, 0xc9, 0xcc, 0x3, 0x2, 0x2, 0x2, 0xca, 0xc8, 
    0x3, 0x2, 0x2, 0x2, 0xca, 0xcb, 0x3, 0x2, 0x2, 0x2, 0xcb, 0x21, 0x3, 
    0x2, 0x2, 0x2, 0xcc, 0xca, 0x3, 0x2, 0x2, 0x2, 0xcd, 0xd2, 0x5, 0x24, 
    0x13, 0x2, 0xce, 0xcf, 0x7, 0x24, 0x2, 0x2, 0xcf, 0xd1, 0x5, 0x24, 0x13, 
    0x2, 0xd0, 0xce, 0x3, 0x2, 0x2, 0x2, 0xd1, 0xd4, 0x3, 0x2, 0x2, 0x2, 
    0xd2, 0xd0, 0x3, 0x2, 0x2, 0x2, 0xd2, 0xd3, 0x3, 0x2, 0x2, 0x2, 0xd3, 
    0xd6, 0x3, 0x2, 0x2, 0x2, 0xd4, 0xd2, 0x3, 0x2, 0x2, 0x2, 0xd5, 0xd7, 
    0x7, 0x24, 0x2, 0x2, 0xd6, 0xd5, 0x3, 0x2, 0x2, 0x2, 0xd6, 0xd7, 0x3, 
    0x2, 0x2, 0x2, 0xd7, 0x23, 0x3, 0x2, 0x2, 0x2, 0xd8, 0xd9, 0x5, 0x30, 
    0x19, 0x2, 0xd9, 0xda, 0x7, 0x2f, 0x2, 0x2, 0xda, 0xdc, 0x3, 0x2, 0x2, 
    0x2, 0xdb, 0xd8, 0x3, 0x2, 0x2, 0x2, 0xdb, 0xdc, 0x3, 0x2, 0x2, 0x2, 
    0xdc, 0xdd, 0x3, 0x2, 0x2, 0x2, 0xdd, 0xde, 0x5, 0x26, 0x14, 0x2, 0xde, 
    0x25, 0x3, 0x2, 0x2, 0x2, 0xdf, 0xe0, 0x8, 0x14, 0x1, 0x2, 0xe0, 0xe4, 
    0x5, 0x28, 0x15, 0x2, 0xe1, 0xe2, 0x9, 0x3, 0x2, 0x2, 0xe2, 0xe4, 0x5, 
    0x26, 0x14, 0xb, 0xe3, 0xdf, 0x3, 0x2, 0x2, 0x2, 0xe3, 0xe1, 0x3, 0x2, 
    0x2, 0x2, 0xe4, 0x110, 0x3, 0x2, 0x2, 0x2, 0xe5, 0xe6, 0xc, 0xa, 0x2, 
    0x2, 0xe6, 0xe7, 0x9, 0x4, 0x2, 0x2, 0xe7, 0x10f, 0x5, 0x26, 0x14, 0xb, 
    0xe8, 0xe9, 0xc, 0x9, 0x2, 0x2, 0xe9, 0xea, 0x9, 0x5, 0x2, 0x2, 0xea, 
    0x10f, 0x5, 0x26, 0x14, 0xa, 0xeb, 0xec, 0xc, 0x8, 0x2, 0x2, 0xec, 0xed, 
    0x9, 0x6, 0x2, 0x2, 0xed, 0x10f, 0x5, 0x26, 0x14, 0x9, 0xee, 0xef, 0xc, 
    0x7, 0x2, 0x2, 0xef, 0xf0, 0x9, 0x7, 0x2, 0x2, 0xf0, 0x10f, 0x5, 0x26, 
    0x14, 0x8, 0xf1, 0xf2, 0xc, 0x6, 0x2, 0x2, 0xf2, 0xf3, 0x7, 0x9, 0x2, 
    0x2, 0xf3, 0x10f, 0x5, 0x26, 0x14, 0x7, 0xf4, 0xf5, 0xc, 0x5, 0x2, 0x2, 
    0xf5, 0xf6, 0x7, 0x35, 0x2, 0x2, 0xf6, 0x10f, 0x5, 0x26, 0x14, 0x6, 
    0xf7, 0xf8, 0xc, 0x4, 0x2, 0x2, 0xf8, 0xf9, 0x7, 0x36, 0x2, 0x2, 0xf9, 
    0x10f, 0x5, 0x26, 0x14, 0x5, 0xfa, 0xfb, 0xc, 0x3, 0x2, 0x2, 0xfb, 0xfc, 
    0x7, 0x28, 0x2, 0x2, 0xfc, 0xfd, 0x5, 0x26, 0x14, 0x2, 0xfd, 0xfe, 0x7, 
    0x27, 0x2, 0x2, 0xfe, 0xff, 0x5, 0x26, 0x14, 0x3, 0xff, 0x10f, 0x3, 
    0x2, 0x2, 0x2, 0x100, 0x101, 0xc, 0xe, 0x2, 0x2, 0x101, 0x102, 0x7, 
    0x26, 0x2, 0x2, 0x102, 0x10f, 0x5, 0x30, 0x19, 0x2, 0x103, 0x104, 0xc, 
    0xd, 0x2, 0x2, 0x104, 0x105, 0x7, 0x20, 0x2, 0x2, 0x105, 0x106, 0x5, 
    0x26, 0x14, 0x2, 0x106, 0x107, 0x7, 0x21, 0x2, 0x2, 0x107, 0x10f, 0x3, 
    0x2, 0x2, 0x2, 0x108, 0x109, 0xc, 0xc, 0x2, 0x2, 0x109, 0x10b, 0x7, 
    0x22, 0x2, 0x2, 0x10a, 0x10c, 0x5, 0x22, 0x12, 0x2, 0x10b, 0x10a, 0x3, 
    0x2, 0x2, 0x2, 0x10b, 0x10c, 0x3, 0x2, 0x2, 0x2, 0x10c, 0x10d, 0x3, 
    0x2, 0x2, 0x2, 0x10d, 0x10f, 0x7, 0x23, 0x2, 0x2, 0x10e, 0xe5, 0x3, 
    0x2, 0x2, 0x2, 0x10e, 0xe8, 0x3, 0x2, 0x2, 0x2, 0x10e, 0xeb, 0x3, 0x2, 
    0x2, 0x2, 0x10e, 0xee, 0x3, 0x2, 0x2, 0x2, 0x10e, 0xf1, 0x3, 0x2, 0x2, 
    0x2, 0x10e, 0xf4, 0x3, 0x2, 0x2, 0x2, 0x10e, 0xf7, 0x3, 0x2, 0x2, 0x2, 
    0x10e, 0xfa, 0x3, 0x2, 0x2, 0x2, 0x10e, 0x100, 0x3, 0x2, 0x2, 0x2, 0x10e, 
    0x103, 0x3, 0x2, 0x2, 0x2, 0x10e, 0x108, 0x3, 0x2, 0x2, 0x2, 0x10f, 
    0x112, 0x3, 0x2, 0x2, 0x2, 0x110, 0x10e, 0x3, 0x2, 0x2, 0x2, 0x110, 
    0x111, 0x3, 0x2, 0x2, 0x2, 0x111, 0x27, 0x3, 0x2, 0x2, 0x2, 0x112, 0x110, 
    0x3, 0x2, 0x2, 0x2, 0x113, 0x142, 0x7, 0x39, 0x2, 0x2, 0x114, 0x142, 
    0x7, 0x3a, 0x2, 0x2, 0x115, 0x142, 0x7, 0x38, 0x2, 0x2, 0x116, 0x142, 
    0x5, 0x2e, 0x18, 0x2, 0x117, 0x142, 0x7, 0xd, 0x2, 0x2, 0x118, 0x142, 
    0x7, 0xe, 0x2, 0x2, 0x119, 0x142, 0x7, 0xf, 0x2, 0x2, 0x11a, 0x142, 
    0x7, 0x10, 0x2, 0x2, 0x11b, 0x142, 0x5, 0x30, 0x19, 0x2, 0x11c, 0x11d, 
    0x7, 0x22, 0x2, 0x2, 0x11d, 0x11e, 0x5, 0x26, 0x14, 0x2, 0x11e, 0x11f, 
    0x7, 0x23, 0x2, 0x2, 0x11f, 0x142, 0x3, 0x2, 0x2, 0x2, 0x120, 0x12f, 
    0x7, 0x20, 0x2, 0x2, 0x121, 0x12d, 0x5, 0x26, 0x14, 0x2, 0x122, 0x12e, 
    0x5, 0x2a, 0x16, 0x2, 0x123, 0x124, 0x7, 0x24, 0x2, 0x2, 0x124, 0x126, 
    0x5, 0x26, 0x14, 0x2, 0x125, 0x123, 0x3, 0x2, 0x2, 0x2, 0x126, 0x129, 
    0x3, 0x2, 0x2, 0x2, 0x127, 0x125, 0x3, 0x2, 0x2, 0x2, 0x127, 0x128, 
    0x3, 0x2, 0x2, 0x2, 0x128, 0x12b, 0x3, 0x2, 0x2, 0x2, 0x129, 0x127, 
    0x3, 0x2, 0x2, 0x2, 0x12a, 0x12c, 0x7, 0x24, 0x2, 0x2, 0x12b, 0x12a, 
    0x3, 0x2, 0x2, 0x2, 0x12b, 0x12c, 0x3, 0x2, 0x2, 0x2, 0x12c, 0x12e, 
    0x3, 0x2, 0x2, 0x2, 0x12d, 0x122, 0x3, 0x2, 0x2, 0x2, 0x12d, 0x127, 
    0x3, 0x2, 0x2, 0x2, 0x12e, 0x130, 0x3, 0x2, 0x2, 0x2, 0x12f, 0x121, 
    0x3, 0x2, 0x2, 0x2, 0x12f, 0x130, 0x3, 0x2, 0x2, 0x2, 0x130, 0x131, 
    0x3, 0x2, 0x2, 0x2, 0x131, 0x142, 0x7, 0x21, 0x2, 0x2, 0x132, 0x13e, 
    0x7, 0x1e, 0x2, 0x2, 0x133, 0x138, 0x5, 0x2c, 0x17, 0x2, 0x134, 0x135, 
    0x7, 0x24, 0x2, 0x2, 0x135, 0x137, 0x5, 0x2c, 0x17, 0x2, 0x136, 0x134, 
    0x3, 0x2, 0x2, 0x2, 0x137, 0x13a, 0x3, 0x2, 0x2, 0x2, 0x138, 0x136, 
    0x3, 0x2, 0x2, 0x2, 0x138, 0x139, 0x3, 0x2, 0x2, 0x2, 0x139, 0x13c, 
    0x3, 0x2, 0x2, 0x2, 0x13a, 0x138, 0x3, 0x2, 0x2, 0x2, 0x13b, 0x13d, 
    0x7, 0x24, 0x2, 0x2, 0x13c, 0x13b, 0x3, 0x2, 0x2, 0x2, 0x13c, 0x13d, 
    0x3, 0x2, 0x2, 0x2, 0x13d, 0x13f, 0x3, 0x2, 0x2, 0x2, 0x13e, 0x133, 
    0x3, 0x2, 0x2, 0x2, 0x13e, 0x13f, 0x3, 0x2, 0x2, 0x2, 0x13f, 0x140, 
    0x3, 0x2, 0x2, 0x2, 0x140, 0x142, 0x7, 0x1f, 0x2, 0x2, 0x141, 0x113, 
    0x3, 0x2, 0x2, 0x2, 0x141, 0x114, 0x3, 0x2, 0x2, 0x2, 0x141, 0x115, 
    0x3, 0x2, 0x2, 0x2, 0x141, 0x116, 0x3, 0x2, 0x2, 0x2, 0x141, 0x117, 
    0x3, 0x2, 0x2, 0x2, 0x141, 0x118, 0x3, 0x2, 0x2, 0x2, 0x141, 0x119, 
    0x3, 0x2, 0x2, 0x2, 0x141, 0x11a, 0x3, 0x2, 0x2, 0x2, 0x141, 0x11b, 
    0x3, 0x2, 0x2, 0x2, 0x141, 0x11c, 0x3, 0x2, 0x2, 0x2, 0x141, 0x120, 
    0x3, 0x2, 0x2, 0x2, 0x141, 0x132, 0x3, 0x2, 0x2, 0x2, 0x142, 0x29, 0x3, 
    0x2, 0x2, 0x2, 0x143, 0x144, 0x7, 0x8, 0x2, 0x2, 0x144, 0x147, 0x5, 
    0x30, 0x19, 0x2, 0x145, 0x146, 0x7, 0x24, 0x2, 0x2, 0x146, 0x148, 0x5, 
    0x30, 0x19, 0x2, 0x147, 0x145, 0x3, 0x2, 0x2, 0x2, 0x147, 0x148, 0x3, 
    0x2, 0x2, 0x2, 0x148, 0x149, 0x3, 0x2, 0x2, 0x2, 0x149, 0x14a, 0x7, 
    0x9, 0x2, 0x2, 0x14a, 0x14d, 0x5, 0x26, 0x14, 0x2, 0x14b, 0x14c, 0x7, 
    0xa, 0x2, 0x2, 0x14c, 0x14e, 0x5, 0x26, 0x14, 0x2, 0x14d, 0x14b, 0x3, 
    0x2, 0x2, 0x2, 0x14d, 0x14e, 0x3, 0x2, 0x2, 0x2, 0x14e, 0x2b, 0x3, 0x2, 
    0x2, 0x2, 0x14f, 0x152, 0x5, 0x2e, 0x18, 0x2, 0x150, 0x152, 0x5, 0x30, 
    0x19, 0x2, 0x151, 0x14f, 0x3, 0x2, 0x2, 0x2, 0x151, 0x150, 0x3, 0x2, 
    0x2, 0x2, 0x152, 0x153, 0x3, 0x2, 0x2, 0x2, 0x153, 0x154, 0x7, 0x27, 
    0x2, 0x2, 0x154, 0x155, 0x5, 0x26, 0x14, 0x2, 0x155, 0x2d, 0x3, 0x2, 
    0x2, 0x2, 0x156, 0x157, 0x9, 0x8, 0x2, 0x2, 0x157, 0x2f, 0x3, 0x2, 0x2, 
    0x2, 0x158, 0x159, 0x9, 0x2, 0x2, 0x2, 0x159, 0x31, 0x3, 0x2, 0x2, 0x2, 
    0x2a, 0x35, 0x3b, 0x49, 0x4e, 0x52, 0x58, 0x63, 0x6d, 0x71, 0x76, 0x7c, 
    0x88, 0x8a, 0x93, 0x96, 0x9c, 0xa2, 0xab, 0xb0, 0xb8, 0xbe, 0xca, 0xd2, 
    0xd6, 0xdb, 0xe3, 0x10b, 0x10e, 0x110, 0x127, 0x12b, 0x12d, 0x12f, 0x138, 
    0x13c, 0x13e, 0x141, 0x147, 0x14d, 0x151, 
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
